import { allTasks, benchmarkOn, runEnds, startOk } from './support/benchmarks';
import { ModelEndpoints, type TargetCall } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { readEventually } from './support/traces';

jest.setTimeout(240_000);

const ITEMS = 8;
const LOCK_MS = 1000;

// BullMQ hands a job to another worker when its lock is not renewed within WORKER_LOCK_MS.
// A slow await renews it; a stalled event loop would not. Two workers and a short lock: a
// slow target and scorers that backtrack must still run each task once, recorded once.
describe('Tasks that outlast the worker lock (distributed)', () => {
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', WORKER_LOCK_MS: String(LOCK_MS) }, replicas: { 'benchmark-worker': 2 } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  it('runs each task once on one of two workers, with exact counts, one attempt and one trace each', async () => {
    const { api } = await inNewProject(ctx.api);
    const tag = `lock-${Date.now()}`;
    const items = Array.from({ length: ITEMS }, (_, i) => ({ input: { prompt: `${tag} ${i}` }, expected: 'a' }));
    const { benchmarkId } = await benchmarkOn(api, items, {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/slow-evil` },
      scorers: ['one', 'two', 'three'].map((name) => ({ name, type: 'regex', config: { pattern: '^(a+)+$' } })),
      runner: { concurrency: ITEMS, maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    const run = await runEnds(api, benchmarkId, runId, 120_000);

    expect(run).toMatchObject({ status: 'completed', counts: { total: ITEMS, completed: ITEMS, failed: 0, running: 0, pending: 0 } });
    const calls = endpoints
      .sentTo<TargetCall>('/target/slow-evil')
      .map((r) => String(r.body.input.prompt))
      .filter((prompt) => prompt.startsWith(tag));
    expect(calls.sort()).toEqual(items.map((item) => item.input.prompt).sort());
    const tasks = await allTasks(api, benchmarkId, runId);
    for (const task of tasks) {
      expect(task).toMatchObject({ status: 'completed', attempts: 1, error: null });
      expect(task.scores.map((s) => s.score)).toEqual([0, 0, 0]);
    }
    for (const task of tasks) {
      const trace = await readEventually(api, task.traceId!, (t) => t.spans.some((s) => s.kind === 'scorer'));
      expect(trace.spans.filter((s: { name: string }) => s.name.startsWith('attempt ')).map((s: { name: string }) => s.name)).toEqual(['attempt 1']);
    }
  });
});
