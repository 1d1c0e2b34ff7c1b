import { CONSOLE_CSP, acceptsHtml, isConsolePath } from './console-pages';

describe('console pages', () => {
  it('are every path but the API, OTLP, operations, docs and assets', () => {
    for (const path of ['/', '/projects', '/traces', '/traces/abc?span=x', '/apiary', '/docsify']) expect(isConsolePath(path)).toBe(true);
    for (const path of ['/api', '/api/v1/nope', '/v1/traces', '/healthz', '/readyz?x=1', '/metrics', '/docs', '/docs/swagger-ui.css', '/assets/index-abc.js'])
      expect(isConsolePath(path)).toBe(false);
  });

  it('go to clients that accept HTML (browsers navigating), not to API clients', () => {
    expect(acceptsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(acceptsHtml('text/html')).toBe(true);
    expect(acceptsHtml('application/json')).toBe(false);
    expect(acceptsHtml('*/*')).toBe(false);
    expect(acceptsHtml('text/htmlx')).toBe(false);
    expect(acceptsHtml(undefined)).toBe(false);
  });

  it('allow no inline script, and media from https: URLs', () => {
    expect(CONSOLE_CSP).toContain("default-src 'self'");
    expect(CONSOLE_CSP).toContain("script-src 'self';");
    expect(CONSOLE_CSP).not.toContain('unsafe-inline');
    expect(CONSOLE_CSP).toContain("media-src 'self' https: data: blob:");
  });
});
