import { e2eMode, repoRoot } from '@cinetrace/testing';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AxeResults, ElementContext } from 'axe-core';
import { Browser, Locator, Page, chromium } from 'playwright-core';

/** Debian's Chromium (installed by .ci/run); playwright-core never downloads a browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the console's screenshots go (gitignored, kept by CI with the other results): one folder per mode, as CI runs both at once. */
export const SCREENSHOTS = join(repoRoot(), '.ci', 'out', 'console', e2eMode());

// Headless and quiet: no sandbox (CI runs as root), no GPU, no background traffic to Google.
// Playwright gives each launch a fresh, empty profile directory (--user-data-dir) of its own.
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, chromiumSandbox: false, args: FLAGS });
}

/**
 * Waits for `locator` to show; when it does not, the error also says what `around` showed
 * then, so a failure in CI (where nobody watches the browser) tells what a person would have seen.
 */
export async function waitShowing(locator: Locator, around: Locator, timeout?: number): Promise<void> {
  try {
    await locator.waitFor(timeout === undefined ? undefined : { timeout });
  } catch (error) {
    const shown = await around.innerText({ timeout: 1000 }).catch(() => '(nothing)');
    throw new Error(`${(error as Error).message}\n--- what was shown instead ---\n${shown}`);
  }
}

export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * The serious and critical accessibility violations axe-core finds on the page (WCAG 2.x
 * A and AA). axe is evaluated through the DevTools protocol, so the page's CSP (no inline
 * scripts) stays in force while it runs.
 */
export async function seriousA11yViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE);
  const violations: AxeViolation[] = await page.evaluate(async () => {
    // Runs in the page, where the axe evaluated above is a global beside the document.
    const page = globalThis as unknown as { axe: { run(context: ElementContext, options: object): Promise<AxeResults> }; document: ElementContext };
    const result = await page.axe.run(page.document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.slice(0, 5).map((n) => String(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Photographs the page as `name` (for a person to look at) and finds no serious or critical accessibility violation on it. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/**
 * What the suites read of the page inside page.evaluate() and the like, which run in the
 * browser: the e2e program has no DOM lib (its fetch and Buffer are Node's), so playwright
 * types those callbacks' elements `any`. A callback names these instead; being types only,
 * they are erased from the function playwright sends to the page.
 */
export interface PageElement {
  getAttribute(name: string): string | null;
  className: string;
  dataset: Record<string, string | undefined>;
  style: { left: string; width: string };
  scrollTop: number;
  scrollHeight: number;
}

/** The page's globals, as `globalThis as unknown as PageGlobals` inside such a callback. */
export interface PageGlobals {
  document: { querySelector(selector: string): PageElement | null; querySelectorAll(selector: string): Iterable<PageElement> };
  sessionStorage: { getItem(key: string): string | null };
  getComputedStyle(element: PageElement): { paddingLeft: string };
}

/** Retries an assertion until it passes or `timeoutMs` go by (the page updates asynchronously). */
export async function expectEventually(assertion: () => Promise<void>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await assertion();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** Signs in with `apiKey` as a person would, then chooses the project named `projectName`: its traces page shows. */
export async function signInToProject(page: Page, baseUrl: string, apiKey: string, projectName: string): Promise<void> {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  await page.getByLabel('Project', { exact: true }).selectOption({ label: projectName });
  await page.getByRole('heading', { name: 'Traces' }).waitFor();
}
