import { expect } from '@jest/globals';
import { Stack, startRedis, startStack, TestRedis } from '@cinetrace/testing';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk, summaryWhen } from './support/benchmarks';
import { ModelEndpoints } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { STACK_HOOK_TIMEOUT_MS } from './support/stack-hooks';
import { eventually } from './support/traces';

jest.setTimeout(120_000);

async function probe(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: (await response.json()) as unknown };
}

/** Polls until `url` answers `status`, and gives its body. */
const answers = (url: string, status: number, timeoutMs = 30_000) =>
  eventually(
    `${url} answering ${status}`,
    async () => {
      const seen = await probe(url);
      if (seen.status !== status) throw new Error(`${seen.status} ${JSON.stringify(seen.body)}`);
      return seen.body;
    },
    timeoutMs,
    200,
  );

// Every app's own probes (the ports Kubernetes probes), and what happens to them and to the
// gateway's /readyz when the task queue's Redis goes away and comes back.
describe('Readiness of each app, and of the stack without its task queue (distributed)', () => {
  let redis: TestRedis;
  let stack: Stack;
  const endpoints = new ModelEndpoints();
  beforeAll(async () => {
    await endpoints.start();
    redis = await startRedis();
    stack = await startStack('distributed', { redisUrl: redis.url, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  }, STACK_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.stop();
    await redis?.stop();
    await endpoints.stop();
  }, STACK_HOOK_TIMEOUT_MS);

  it('serves /healthz and /readyz on every app, naming what each depends on', async () => {
    const expected: Record<string, Record<string, string>> = {
      'project-service': { store: 'up', bus: 'up' },
      'prompt-service': { store: 'up', bus: 'up' },
      'trace-ingest': { store: 'up', bus: 'up' },
      'benchmark-service': { store: 'up', bus: 'up', queue: 'up' },
      'benchmark-worker': { queue: 'up', bus: 'up' },
      'media-service': { store: 'up', bus: 'up', queue: 'up' },
    };
    for (const [app, checks] of Object.entries(expected)) {
      expect(await probe(`${stack.healthUrl(app)}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
      expect({ app, ...(await probe(`${stack.healthUrl(app)}/readyz`)) }).toEqual({ app, status: 200, body: { status: 'ok', checks } });
    }
  });

  it('is not ready, naming the queue, while Redis is down, and ready again once it is back', async () => {
    await redis.stop();
    const gateway = await answers(`${stack.baseUrl}/readyz`, 503);
    expect(gateway).toMatchObject({ status: 503, code: 'unavailable', detail: 'Not ready: queue, benchmark-service unreachable' });
    expect(await answers(`${stack.healthUrl('benchmark-worker')}/readyz`, 503)).toEqual({ status: 'unavailable', checks: { queue: 'down', bus: 'up' } });
    expect(await answers(`${stack.healthUrl('benchmark-service')}/readyz`, 503)).toEqual({
      status: 'unavailable',
      checks: { store: 'up', bus: 'up', queue: 'down' },
    });
    // Liveness is not readiness: an orchestrator must not restart an app for its dependency's outage.
    expect((await probe(`${stack.healthUrl('benchmark-worker')}/healthz`)).status).toBe(200);

    await redis.start();
    expect(await answers(`${stack.baseUrl}/readyz`, 200, 60_000)).toMatchObject({ checks: { queue: 'up' } });
    await answers(`${stack.healthUrl('benchmark-worker')}/readyz`, 200, 60_000);
  });

  it('completes a run whose jobs Redis lost mid-run, with their worker, each task once', async () => {
    const { api } = await inNewProject(stack.api());
    const { benchmarkId } = await benchmarkOn(api, captionItems(12), {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/steady` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { concurrency: 3, maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    await summaryWhen(api, benchmarkId, runId, (s) => s.counts.completed >= 2 && s.counts.running > 0);

    // The worker dies with tasks in hand, and Redis (which keeps nothing on disk here) loses
    // their jobs: nothing but benchmark-service's own records says those tasks are unfinished.
    await stack.killApp('benchmark-worker', 'SIGKILL');
    await redis.stop();
    await redis.start();
    await stack.startApp('benchmark-worker');

    const run = await runEnds(api, benchmarkId, runId, 90_000);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 12, completed: 12, failed: 0, cancelled: 0, pending: 0, running: 0 } });
    const tasks = await allTasks(api, benchmarkId, runId);
    expect(tasks.map((t) => t.itemIndex)).toEqual([...Array(12).keys()]);
    for (const task of tasks) expect(task).toMatchObject({ status: 'completed', error: null, scores: [expect.objectContaining({ score: 1 })] });
  });
});
