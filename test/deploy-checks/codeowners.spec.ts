// 5. Every directory of apps/ and libs/ has its own CODEOWNERS line, and that line decides.
import { codeownersProblems } from './codeowners-checks';
import { decidingRule, ownerRules, patternMatches } from './codeowners';
import { workspaceDirs } from './manifests';
import { exists, readText } from './repo';

// GitHub reads the first of these that exists; two would leave one silently ignored.
const LOCATIONS = ['.github/CODEOWNERS', 'CODEOWNERS', 'docs/CODEOWNERS'];

describe('CODEOWNERS', () => {
  const present = LOCATIONS.filter(exists);

  it('exists in exactly one of the places GitHub reads', () => {
    expect(present).toHaveLength(1);
  });

  it('has a deciding line with owners for every app and lib, and none for directories that are gone', () => {
    const dirs = workspaceDirs();
    expect(dirs).toEqual(expect.arrayContaining(['apps/gateway', 'libs/testing']));
    expect(codeownersProblems(readText(present[0]), dirs)).toEqual([]);
  });
});

describe('the CODEOWNERS check fails', () => {
  const text = () => readText(LOCATIONS.filter(exists)[0]);

  it('on a directory without a line, a stale line, a bad owner, and a later line overriding', () => {
    const broken = `${text().replace(/^\/libs\/slugs\/.*$/m, '')}\n/libs/sluggs/ @cinetrace/x\n/libs/ cinetrace-team\n`;
    const problems = codeownersProblems(broken, ['apps/gateway', 'libs/slugs', 'libs/auth']);
    expect(problems).toEqual(
      expect.arrayContaining([
        'CODEOWNERS has no line for libs/slugs/',
        expect.stringMatching(/\(\/libs\/\) overrides the line of libs\/auth\//),
        expect.stringMatching(/cinetrace-team is not @user, @org\/team or an e-mail/),
        expect.stringMatching(/\/libs\/sluggs\/ names a directory that does not exist/),
      ]),
    );
  });

  it('reads patterns as GitHub does', () => {
    expect(patternMatches('/apps/gateway/', 'apps/gateway/src/main.ts')).toBe(true);
    expect(patternMatches('/apps/gateway/', 'apps/gateway-v2/src/main.ts')).toBe(false);
    expect(patternMatches('*', 'libs/x/package.json')).toBe(true);
    expect(patternMatches('Dockerfile', 'apps/x/Dockerfile')).toBe(true);
    expect(patternMatches('/Dockerfile', 'apps/x/Dockerfile')).toBe(false);
    expect(patternMatches('/libs/**', 'libs/a/b/c.ts')).toBe(true);
    const rules = ownerRules('* @a\n/apps/x/ @b\n');
    expect(decidingRule(rules, 'apps/x/package.json')?.owners).toEqual(['@b']);
    expect(decidingRule(rules, 'apps/y/package.json')?.owners).toEqual(['@a']);
  });
});
