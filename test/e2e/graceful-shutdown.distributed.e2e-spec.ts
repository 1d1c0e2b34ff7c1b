import { expect } from '@jest/globals';
import { Api, Stack } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk, summaryWhen } from './support/benchmarks';
import { ModelEndpoints } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { aTrace, anId, eventually, getTrace, TRACES } from './support/traces';

jest.setTimeout(600_000);

/** What an orchestrator gives an app between SIGTERM and SIGKILL. */
const GRACE_MS = 10_000;

/** The order apps are stopped in: the run's two first, while it has tasks in flight. */
const APPS = ['benchmark-worker', 'benchmark-service', 'trace-ingest', 'project-service', 'prompt-service', 'media-service', 'gateway'];

/** Traces POSTed one after another by a few clients until stopped; keeps the id of each one answered 202. */
class TraceLoad {
  readonly accepted: string[] = [];
  refused = 0;
  private running = true;
  private readonly clients: Promise<void>[];

  constructor(
    private readonly api: Api,
    clients = 3,
  ) {
    this.clients = Array.from({ length: clients }, () => this.client());
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.clients);
  }

  private async client(): Promise<void> {
    while (this.running) {
      const id = anId('load');
      try {
        const response = await this.api.post(TRACES, aTrace({ id }));
        if (response.status === 202) this.accepted.push(id);
        else this.refused += 1; // 503 while a dependency is away: not acknowledged, the client would retry
      } catch {
        this.refused += 1; // the gateway itself is down: nothing acknowledged either
      }
      await sleep(20);
    }
  }
}

async function readyAgain(stack: Stack, app: string): Promise<void> {
  const ready = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(5000) })).status === 200 || undefined;
  await eventually(`${app} ready again`, () => ready(`${stack.healthUrl(app)}/readyz`).catch(() => undefined), 90_000, 200);
  await eventually('the stack ready again', () => ready(`${stack.baseUrl}/readyz`).catch(() => undefined), 90_000, 200);
}

// Each app of the distributed stack gets SIGTERM in turn, under a trace load and with a
// benchmark run in flight: each must stop within the grace period with exit code 0, and
// everything the stack acknowledged must be there in the end.
describe('SIGTERM during load (distributed)', () => {
  // Its own stack: the test stops and starts each app.
  const ctx = useStack({ own: true, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  it('every app stops within 10 s with exit code 0, and nothing acknowledged is lost', async () => {
    const { api } = await inNewProject(ctx.api);
    const items = captionItems(60);
    const { benchmarkId } = await benchmarkOn(api, items, {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/steady` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { concurrency: 2, maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    await summaryWhen(api, benchmarkId, runId, (s) => s.counts.running > 0);
    const load = new TraceLoad(api);

    const stops: Array<{ app: string; code: number | null; signal: string | null; withinGrace: boolean }> = [];
    try {
      for (const app of APPS) {
        const before = load.accepted.length;
        await eventually(`traces accepted before stopping ${app}`, async () => (load.accepted.length > before + 5 ? true : undefined), 60_000, 100);
        const sent = Date.now();
        const exit = await ctx.stack.killApp(app, 'SIGTERM');
        stops.push({ app, code: exit.code, signal: exit.signal, withinGrace: Date.now() - sent < GRACE_MS });
        await ctx.stack.startApp(app);
        await readyAgain(ctx.stack, app);
      }
      const before = load.accepted.length;
      await eventually('traces accepted after the last restart', async () => (load.accepted.length > before + 5 ? true : undefined), 60_000, 100);
    } finally {
      await load.stop();
    }

    expect(stops).toEqual(APPS.map((app) => ({ app, code: 0, signal: null, withinGrace: true })));

    // Every trace answered 202 is readable with all its spans.
    const missing: string[] = [];
    for (const id of load.accepted) {
      try {
        await eventually(
          `trace ${id}`,
          async () => {
            const response = await getTrace(api, id);
            return response.status === 200 && response.body.spans.length === 3 ? true : undefined;
          },
          30_000,
          200,
        );
      } catch {
        missing.push(id);
      }
    }
    expect({ accepted: load.accepted.length > 0, missing }).toEqual({ accepted: true, missing: [] });

    // The run went through two restarts of its own apps and still ran each task once.
    const run = await runEnds(api, benchmarkId, runId, 180_000);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 60, completed: 60, failed: 0, cancelled: 0, pending: 0, running: 0 } });
    const tasks = await allTasks(api, benchmarkId, runId);
    expect(tasks.map((t) => t.itemIndex)).toEqual([...Array(60).keys()]);
    for (const task of tasks) expect(task).toMatchObject({ status: 'completed', error: null, scores: [expect.objectContaining({ score: 1 })] });
  });
});
