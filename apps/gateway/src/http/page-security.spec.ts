import { DOCS_CSP } from '../openapi/docs-page-headers';
import { CONSOLE_CSP } from './console-pages';
import { pageSecurityPolicy } from './page-security';

const directives = (policy: string) => new Map(policy.split('; ').map((part) => [part.split(' ')[0], part.slice(part.indexOf(' ') + 1)]));

describe('the pages’ Content-Security-Policy', () => {
  it('holds every page (the console, /docs) to the same rules, loosened only where each says', () => {
    const common = directives(pageSecurityPolicy({}));
    for (const [page, policy, loosened] of [
      ['console', CONSOLE_CSP, ['img-src', 'media-src']],
      ['docs', DOCS_CSP, ['style-src', 'img-src']],
    ] as const) {
      const own = directives(policy);
      expect([...own.keys()].sort()).toEqual([...common.keys()].sort());
      const differing = [...own].filter(([directive, sources]) => common.get(directive) !== sources).map(([directive]) => directive);
      expect({ page, differing: differing.sort() }).toEqual({ page, differing: [...loosened].sort() });
    }
  });

  it('never lets a page run inline script, load plugins or be framed', () => {
    for (const policy of [CONSOLE_CSP, DOCS_CSP]) {
      expect(directives(policy).get('script-src')).toBe("'self'");
      expect(directives(policy).get('object-src')).toBe("'none'");
      expect(directives(policy).get('frame-ancestors')).toBe("'none'");
    }
  });
});
