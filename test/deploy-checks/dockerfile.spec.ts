// 6a. The Dockerfile builds every app once and makes a runtime image per app: ARG APP (in the
//     last stage only) chooses what CMD runs, tini is PID 1, the USER is a non-root uid; the
//     build stage has the compilers better-sqlite3 needs and dev dependencies are dropped.
import { dockerfileProblems, dockerignoreProblems } from './dockerfile-checks';
import { deployableApps, readText } from './repo';
import { loadYaml } from './yaml-files';

const dockerfile = () => readText('Dockerfile');

describe('Dockerfile', () => {
  it('builds a non-root, tini-run image of the app named by ARG APP', () => {
    expect(dockerfileProblems(dockerfile())).toEqual([]);
  });

  it('keeps host builds, local data and git out of the build context', () => {
    expect(dockerignoreProblems(readText('.dockerignore'))).toEqual([]);
  });

  // The CMD runs apps/$APP/dist/main.js: each app must compile src/main.ts there.
  it.each(deployableApps())('%s compiles src/ to dist/ with its build script', (app) => {
    const pkg = JSON.parse(readText(`apps/${app}/package.json`)) as { scripts?: Record<string, string> };
    expect(pkg.scripts?.build).toMatch(/\btsc\b/);
    const tsconfig = loadYaml(`apps/${app}/tsconfig.json`)[0] as { compilerOptions?: { rootDir?: string; outDir?: string } };
    expect(tsconfig.compilerOptions).toMatchObject({ rootDir: 'src', outDir: 'dist' });
  });
});

describe('the Dockerfile check fails', () => {
  it('without USER, with a variable in an exec-form CMD, with ARG APP in a build stage, without tini', () => {
    const broken = dockerfile()
      .replace(/^USER .*$/m, '')
      .replace(/^CMD .*$/m, 'CMD ["node", "apps/${CINETRACE_APP}/dist/main.js"]')
      .replace(/^ENTRYPOINT .*$/m, '')
      .replace(/^FROM base AS build$/m, 'FROM base AS build\nARG APP');
    expect(dockerfileProblems(broken)).toEqual(
      expect.arrayContaining([
        'the runtime stage sets no USER (it would run as root)',
        'CMD uses a variable in exec form without a shell: it is never expanded',
        expect.stringMatching(/^stage build declares ARG APP/),
        'the runtime stage does not run under tini (ENTRYPOINT)',
      ]),
    );
  });

  it('when CMD runs something not chosen by ARG APP, and on a root USER', () => {
    const broken = dockerfile()
      .replace(/^CMD .*$/m, 'CMD ["/bin/sh", "-c", "exec node apps/gateway/dist/main.js"]')
      .replace(/^USER .*$/m, 'USER 0');
    expect(dockerfileProblems(broken)).toEqual(expect.arrayContaining([expect.stringMatching(/^CMD does not run node apps\/\$APP\/dist\/main\.js/), 'USER is root']));
  });

  it('when node_modules enters the build context', () => {
    expect(dockerignoreProblems(readText('.dockerignore').replace('**/node_modules', ''))).toEqual([
      '.dockerignore does not exclude node_modules (**/node_modules or node_modules)',
    ]);
  });
});
