// 7. The real tools, where they are installed: `docker compose config` validates the compose
//    file against the Compose specification; `kubectl kustomize` (or `kustomize build`)
//    renders the base and each overlay.
//
// Honesty about absent tools: these tests are not skipped when a tool is missing — they
// still assert what can be known without it (the files parse, and the parse-based checks of
// the other specs ran on them) and print that the tool's own validation did not happen, so
// a green run on a machine without the tool is never mistaken for the tool having passed.
// The detection is by exit code: `docker compose version` fails when only the docker CLI is
// installed, without its compose plugin.
import { baseObjects, composeFile, overlayDirs, render } from './manifests';
import { composePluginPresent, kustomizeCommand, run } from './tools';

const note = (message: string) => process.stdout.write(`[deploy-checks] ${message}\n`);

describe('docker compose config', () => {
  const present = composePluginPresent();

  it(`${present ? 'accepts' : '(compose plugin absent: not run) parse-based checks only for'} docker-compose.yml`, () => {
    if (!present) {
      note('`docker compose version` failed: the compose plugin is not installed, so `docker compose config` did not validate docker-compose.yml; only the parse-based checks ran.');
      expect(Object.keys(composeFile().services).length).toBeGreaterThan(0);
      return;
    }
    // The file requires BOOTSTRAP_API_KEY from the environment (never a default); any value does for validation.
    const result = run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], { BOOTSTRAP_API_KEY: 'x'.repeat(32) });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  if (present) {
    it('refuses to start without BOOTSTRAP_API_KEY', () => {
      const result = run('docker', ['compose', '-f', 'docker-compose.yml', 'config', '--quiet'], { BOOTSTRAP_API_KEY: '' });
      expect(result.status).not.toBe(0);
      expect(result.stderr).toMatch(/BOOTSTRAP_API_KEY/);
    });
  }
});

describe('kustomize', () => {
  const tool = kustomizeCommand();

  it.each(['deploy/base', ...overlayDirs()])(`${tool ? `${tool.command} renders` : '(no kubectl or kustomize: not rendered) parse-based checks only for'} %s`, (dir) => {
    if (!tool) {
      note(`neither kubectl nor kustomize is installed: ${dir} was not rendered; only the parse-based checks ran.`);
      expect(baseObjects().length).toBeGreaterThan(0);
      return;
    }
    const rendering = render(dir);
    expect(rendering.error).toBeUndefined();
    // Every object of the base comes out (overlays change objects, they add or drop none here).
    const key = (o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`;
    expect(rendering.objects!.map(key).sort()).toEqual(baseObjects().map(key).sort());
    if (dir !== 'deploy/base') for (const o of rendering.objects!) expect(o.metadata.namespace).toBeTruthy();
  });
});
