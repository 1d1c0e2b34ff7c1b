import { expect } from '@jest/globals';
import { Api, unique } from '@cinetrace/testing';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { BENCHMARKS, runEnds } from './support/benchmarks';
import { expectAccessible, expectEventually, signInToProject, launchChromium, type PageElement, type PageGlobals } from './support/browser';
import { appendOk, createDataset } from './support/datasets';
import { createPrompt, del, inNewProject, put } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

/** The console's benchmark, prompt, dataset and settings pages in a real browser, against the stack. */

jest.setTimeout(120_000);

const ITEMS = 6;
/** Which items the local target captions right in each round: run 2 loses item 1 and gains item 3. */
const RIGHT_IN_ROUND: Record<number, number[]> = { 1: [0, 1, 2], 2: [0, 2, 3] };

describe('Console pages', () => {
  // The benchmark's target is a local HTTP endpoint whose answers change between runs.
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Api;
  let projectName: string;
  let target: Server;
  let round = 1;
  let benchmarkName: string;
  let benchmarkId: string;
  /** Lets round 1's last item be answered: until then its run cannot end. */
  let releaseLastItem: () => void = () => {};
  const lastItemReleased = new Promise<void>((resolve) => (releaseLastItem = resolve));
  let datasetName: string;
  const cspErrors: string[] = [];
  const prompt = {
    name: unique('Lighthouse shot'),
    before: 'A slow dolly shot of {{subject}}\nat dusk, warm light\n24 fps',
    after: 'A slow dolly shot of {{subject}}\nat dawn, cold light\n24 fps',
  };
  const gone = unique('Retired shot');

  beforeAll(async () => {
    target = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk) => (text += chunk));
      req.on('end', () => {
        const { item } = JSON.parse(text || '{}') as { item: { index: number; expected: { caption: string } } }; // what a benchmark's target is sent
        const right = RIGHT_IN_ROUND[round].includes(item.index);
        // A little latency, so the run is seen moving.
        const answer = () =>
          setTimeout(() => {
            res.writeHead(200, { 'content-type': 'application/json' });
            res.end(JSON.stringify({ output: { caption: right ? item.expected.caption : 'a different shot' } }));
          }, 150);
        if (round === 1 && item.index === ITEMS - 1) void lastItemReleased.then(answer);
        else answer();
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/caption`;

    const created = await inNewProject(ctx.api);
    api = created.api;
    projectName = (await ctx.api.get<Answer<'getProject'>>(`/api/v1/projects/${created.projectId}`)).body.name;
    datasetName = unique('Camera moves');
    const dataset = await createDataset(api, { name: datasetName });
    await appendOk(
      api,
      dataset.id,
      Array.from({ length: ITEMS }, (_, i) => ({ input: { subject: `shot ${i}` }, expected: { caption: `shot ${i}` } })),
    );
    benchmarkName = unique('Captions');
    const benchmark = await api.post(BENCHMARKS, {
      name: benchmarkName,
      datasetId: dataset.id,
      target: { type: 'http', url },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { concurrency: 2, maxAttempts: 1 },
    });
    expect(benchmark.status).toBe(201);
    benchmarkId = (benchmark.body as { id: string }).id;

    const shot = await createPrompt(api, { name: prompt.name, content: prompt.before, labels: ['staging'] });
    expect((await put(api, shot.id, { content: prompt.after, labels: ['staging', 'production'] })).status).toBe(200);
    const retired = await createPrompt(api, { name: gone });
    expect((await del(api, retired.id)).status).toBe(200);

    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspErrors.push(message.text());
    });
    // Revoking and deleting ask for a confirmation.
    page.on('dialog', (dialog) => void dialog.accept());

    await signInToProject(page, ctx.stack.baseUrl, ctx.stack.apiKey, projectName);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => target?.close(resolve));
  });

  afterEach(async () => {
    await page?.unrouteAll({ behavior: 'ignoreErrors' });
    expect(cspErrors).toEqual([]);
  });

  /**
   * From now on, until the page has read the runs once more: releases the held item, and answers
   * the next read of the runs only once the run has ended on the server; a read of the tasks made
   * meanwhile is answered with the tasks as they were before the end (what the server may answer
   * a read that reached it first), after that read of the runs. A page that reads the tasks only
   * alongside the runs then never shows the last score.
   */
  async function tasksReadAlongsideTheEnd(runId: string): Promise<void> {
    const tasksPath = `${BENCHMARKS}/${benchmarkId}/tasks`;
    const before = await api.get(tasksPath, { runId });
    let holding = true;
    let endSeen: () => void = () => {};
    const endAnswered = new Promise<void>((resolve) => (endSeen = resolve));
    let ended: Promise<unknown> | null = null;
    await page.route(
      (url) => url.pathname === `${BENCHMARKS}/${benchmarkId}/runs`,
      async (route) => {
        if (!holding) return route.continue();
        releaseLastItem();
        await (ended ??= runEnds(api, benchmarkId, runId, 30_000));
        const response = await route.fetch();
        holding = false;
        await route.fulfill({ response });
        endSeen();
      },
    );
    await page.route(
      (url) => url.pathname === tasksPath,
      async (route) => {
        if (!holding) return route.continue();
        await endAnswered;
        await route.fulfill({ status: 200, contentType: 'application/json', body: before.text });
      },
    );
  }

  it('lists the benchmarks and starts a run whose progress bar reaches completed with its counts', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Benchmarks' }).click();
    await page.getByRole('heading', { name: 'Benchmarks' }).waitFor();
    await page.getByRole('cell', { name: 'never run' }).waitFor();
    await expectAccessible(page, 'benchmarks');

    await page.getByRole('link', { name: benchmarkName }).click();
    await page.getByText('No run yet').waitFor();
    await page.getByRole('button', { name: 'Start run' }).click();
    const bar = page.getByRole('progressbar', { name: /^Progress of run / });
    await bar.waitFor();
    // Every item but the last (held by the target) scored: the run cannot end until it is let go.
    const scores = page.locator('table.tasks tbody tr td:nth-child(5)');
    await expectEventually(async () => expect(await scores.allTextContents()).toEqual(['1', '1', '1', '0', '0', '—']));
    // Now the race a real network may run: tasks read alongside the read of the runs that finds
    // the run ended are answered as they were before it ended, and arrive after it.
    await tasksReadAlongsideTheEnd(new URL(page.url()).searchParams.get('run')!);
    // Done when every task has ended: the bar full, the counts in words beside it.
    await page.waitForFunction(
      () => {
        const el = (globalThis as unknown as PageGlobals).document.querySelector('[role=progressbar][aria-label^="Progress of run"]');
        return el && el.getAttribute('aria-valuenow') === el.getAttribute('aria-valuemax') && el.getAttribute('aria-valuemax') !== '0';
      },
      null,
      { timeout: 30_000 },
    );
    expect(await bar.getAttribute('aria-valuetext')).toBe(`${ITEMS} of ${ITEMS} tasks ended`);
    await page.getByText(`${ITEMS} completed`).first().waitFor();
    await page.locator('.runs .badge', { hasText: 'completed' }).waitFor();
    await page.getByRole('button', { name: 'Start run' }).waitFor();

    // The task table: one row per item, every scorer's score once the run says completed, a link to each task's trace.
    const rows = page.locator('table.tasks tbody tr');
    await expectEventually(async () => expect(await rows.count()).toBe(ITEMS));
    await expectEventually(async () => expect(await scores.allTextContents()).toEqual(['1', '1', '1', '0', '0', '0']));
    // The benchmark's own status, read alongside the runs, follows too.
    await page.locator('h1 .badge', { hasText: 'completed' }).waitFor();
    expect(await page.getByRole('link', { name: /^Trace of item / }).count()).toBe(ITEMS);
    // The scorer's summary: mean and pass rate of 3 right out of 6.
    const summary = page.getByRole('list', { name: 'Scorer summaries' });
    await summary.getByText('0.500').waitFor();
    await summary.getByText('50 %').waitFor();
    await expectAccessible(page, 'benchmark');
  });

  it('compares two runs side by side, regressions first', async () => {
    round = 2;
    await page.getByRole('button', { name: 'Start run' }).click();
    await expectEventually(async () => expect(await page.locator('table.runs tbody tr').count()).toBe(2));
    await page.waitForFunction(
      () =>
        [...(globalThis as unknown as PageGlobals).document.querySelectorAll('table.runs [role=progressbar]')].every(
          (el) => el.getAttribute('aria-valuenow') === el.getAttribute('aria-valuemax'),
        ),
      null,
      { timeout: 30_000 },
    );
    for (const box of await page.getByRole('checkbox', { name: /^Compare run / }).all()) await box.check();
    await page.getByRole('button', { name: 'Compare runs' }).click();
    const comparison = page.getByRole('region', { name: 'Run comparison' });
    await comparison.getByText('1 regressed', { exact: false }).waitFor();
    expect(await comparison.getByRole('status').textContent()).toBe('1 regressed · 1 improved · 4 unchanged');
    const firstRows = comparison.locator('table.compare tbody tr');
    expect(await firstRows.evaluateAll((rows: PageElement[]) => rows.slice(0, 2).map((r) => [r.dataset.itemIndex, r.className]))).toEqual([
      ['1', 'change-regression'],
      ['3', 'change-improvement'],
    ]);
    expect(await firstRows.first().locator('td').nth(2).textContent()).toBe('1 → 0 (−1)');
    await expectAccessible(page, 'benchmark-compare');
  });

  it('lists the prompts, hides deleted ones until asked, and diffs two versions', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Prompts' }).click();
    await page.getByRole('link', { name: prompt.name }).waitFor();
    expect(await page.getByRole('link', { name: gone }).count()).toBe(0);
    await page.getByLabel('Include deleted').check();
    await page.waitForURL(/includeDeleted=true/);
    await page.getByRole('link', { name: gone }).waitFor();
    await expectAccessible(page, 'prompts');
    await page.getByLabel('Label').fill('production');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/label=production/);
    await expectEventually(async () => expect(await page.locator('table.prompts tbody tr').count()).toBe(1));

    await page.getByRole('link', { name: prompt.name }).click();
    const diff = page.getByRole('region', { name: 'Version diff' });
    await diff.locator('.diff-table').waitFor();
    // v1 → v2 by default: the changed line beside its new text, the others unchanged.
    expect(await diff.locator('tr.diff-changed td.old').allTextContents()).toEqual(['changed from: at dusk, warm light']);
    expect(await diff.locator('tr.diff-changed td.new').allTextContents()).toEqual(['changed to: at dawn, cold light']);
    expect(await diff.locator('tr.diff-same').count()).toBe(2);
    await page.getByText('{{subject}}', { exact: true }).waitFor();
    // The activity log names who changed which field.
    const activity = page.locator('table.activity tbody tr');
    expect(await activity.count()).toBe(2);
    expect(await activity.first().locator('td').nth(1).textContent()).toBe('updated');
    expect(await activity.first().locator('td.changes strong').allTextContents()).toEqual(expect.arrayContaining(['content', 'labels']));
    await expectAccessible(page, 'prompt-diff');

    // The same version on both sides: nothing changed.
    await diff.getByLabel('From').selectOption('2');
    await expectEventually(async () => expect(await diff.locator('tr.diff-changed').count()).toBe(0));
  });

  it('lists the datasets and pages through a dataset’s items', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Datasets' }).click();
    await page.getByRole('link', { name: datasetName }).waitFor();
    await expectAccessible(page, 'datasets');
    await page.getByRole('link', { name: datasetName }).click();
    await expectEventually(async () => expect(await page.locator('table.items tbody tr').count()).toBe(ITEMS));
    await page.getByRole('group', { name: 'Input of item 5' }).getByText('"shot 5"').waitFor();
    await expectAccessible(page, 'dataset');
  });

  it('creates an API key shown once, revokes it, and keeps a secret without showing its value', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    const keyName = unique('console key');
    await page.getByLabel('Key name').fill(keyName);
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByLabel('New key');
    await shown.waitFor();
    const key = (await shown.textContent())!;
    expect(key).toMatch(/^ct_/);
    await page.getByRole('cell', { name: keyName, exact: true }).waitFor();

    const secretName = unique('CONSOLE_SECRET')
      .toUpperCase()
      .replace(/[^A-Z0-9_]/g, '_');
    await page.getByLabel('Secret name').fill(secretName);
    await page.getByLabel('Value').fill('s3cr3t-value');
    await page.getByRole('button', { name: 'Save secret' }).click();
    await page.getByRole('cell', { name: secretName, exact: true }).waitFor();
    expect(await page.content()).not.toContain('s3cr3t-value');
    await expectAccessible(page, 'settings');

    await page.getByRole('button', { name: `Revoke key ${keyName}` }).click();
    await page.getByRole('cell', { name: keyName, exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: `Delete secret ${secretName}` }).click();
    await page.getByRole('cell', { name: secretName, exact: true }).waitFor({ state: 'detached' });
  });
});
