import { expect } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { launchChromium, screenshot, waitShowing } from './support/browser';
import { useStack } from './support/stack-hooks';

jest.setTimeout(60_000);

/** The console's headers (console-pages.ts), which the API reference page now has too. */
const PAGE_HEADERS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

/** The reference page at /docs (Swagger UI): framed by nobody, no sniffing, and a policy that still lets it render. */
describe('The API reference page', () => {
  const ctx = useStack();
  let browser: Browser | undefined;

  afterAll(async () => {
    await browser?.close();
  });

  it('is served, with its scripts and styles, under a Content-Security-Policy that forbids framing, and nosniff', async () => {
    for (const path of ['/docs', '/docs/', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui-init.js', '/docs/swagger-ui.css']) {
      const response = await fetch(`${ctx.stack.baseUrl}${path}`);
      expect([path, response.status]).toEqual([path, 200]);
      expect(response.headers.get('x-content-type-options')).toBe(PAGE_HEADERS['x-content-type-options']);
      expect(response.headers.get('referrer-policy')).toBe(PAGE_HEADERS['referrer-policy']);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      await response.arrayBuffer();
    }
  });

  it('renders in Chromium under that policy, with no violation and no call to another origin', async () => {
    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const cspErrors: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(ctx.stack.baseUrl) && !request.url().startsWith('data:')) foreign.push(request.url());
    });
    await page.goto(`${ctx.stack.baseUrl}/docs`);
    await waitShowing(page.locator('.swagger-ui .info .title', { hasText: 'Cinetrace API' }), page.locator('body'));
    await waitShowing(page.locator('.opblock-tag', { hasText: /traces/i }).first(), page.locator('body'));
    // An operation opens, and its example shows.
    await page.locator('.opblock-summary-path', { hasText: '/api/v1/projects' }).first().click();
    await waitShowing(page.locator('.opblock.is-open .responses-wrapper'), page.locator('body'));
    await screenshot(page, 'api-reference');
    expect(cspErrors).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
