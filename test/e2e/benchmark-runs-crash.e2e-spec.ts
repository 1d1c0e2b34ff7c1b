import { expect } from '@jest/globals';
import { e2eMode } from '@cinetrace/testing';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk, summaryWhen } from './support/benchmarks';
import { ModelEndpoints, type TargetCall } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { readEventually } from './support/traces';

jest.setTimeout(180_000);

// What each mode loses mid-run: the all-in-one stack its whole process, the distributed
// stack one of its benchmark-workers.
describe(`A run survives a crash mid-run (${e2eMode()})`, () => {
  // A short lock: a killed worker's job is taken over 2 s after (distributed). Its own stack: the tests kill it.
  const ctx = useStack({ own: true, env: { OUTBOUND_ALLOW_PRIVATE: 'true', WORKER_LOCK_MS: '2000', WORKER_SHUTDOWN_GRACE_MS: '500' } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  it('completes every task exactly once after the crash', async () => {
    const { api } = await inNewProject(ctx.api);
    const items = captionItems(12);
    const { benchmarkId } = await benchmarkOn(api, items, {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/steady` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { concurrency: 2, maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    await summaryWhen(api, benchmarkId, runId, (s) => s.counts.completed >= 2 && s.counts.running > 0);

    if (e2eMode() === 'all-in-one') {
      await ctx.stack.kill('SIGKILL');
      await ctx.stack.restart();
    } else {
      // Its jobs stall; the worker that comes back (a replica would do the same) takes them over.
      await ctx.stack.killApp('benchmark-worker', 'SIGKILL');
      await ctx.stack.startApp('benchmark-worker');
    }

    // Same address and keys after a restart: the project's client goes on as it was.
    const run = await runEnds(api, benchmarkId, runId, 120_000);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 12, completed: 12, failed: 0, cancelled: 0, pending: 0, running: 0 } });
    const tasks = await allTasks(api, benchmarkId, runId);
    expect(tasks.map((t) => t.itemIndex)).toEqual([...Array(12).keys()]);
    for (const task of tasks) expect(task).toMatchObject({ status: 'completed', error: null, scores: [expect.objectContaining({ score: 1 })] });
  });

  it('does not run a task that takes its process down more than maxAttempts times, across restarts', async () => {
    const { api } = await inNewProject(ctx.api);
    const { benchmarkId } = await benchmarkOn(api, [{ input: { prompt: 'fatal' }, expected: { caption: 'x' } }], {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/hang` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { maxAttempts: 2 },
    });
    const runId = await startOk(api, benchmarkId);
    const calls = () => endpoints.sentTo<TargetCall>('/target/hang').filter((r) => r.body.item.input.prompt === 'fatal').length;

    // Each time the task is running its target, its process dies: two crashes use up its two attempts.
    for (let crash = 1; crash <= 2; crash++) {
      await waitUntil(() => calls() >= crash, 60_000);
      await crashTheTaskProcess();
    }

    const run = await runEnds(api, benchmarkId, runId, 90_000);
    expect(run).toMatchObject({ status: 'failed', counts: { total: 1, failed: 1 } });
    const [task] = await allTasks(api, benchmarkId, runId);
    expect(task).toMatchObject({ status: 'failed', attempts: 2, error: 'the process running this task stopped before it finished, and no attempt is left' });
    expect(calls()).toBe(2);
    // The attempts died unrecorded; the task's trace still tells why it failed.
    const trace = await readEventually(api, task.traceId!);
    expect(trace).toMatchObject({ status: 'error' });
    expect(trace.spans).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'attempt 2', status: 'error', statusMessage: task.error })]));
  });

  it('does not count an attempt that a graceful shutdown stopped', async () => {
    const { api } = await inNewProject(ctx.api);
    const { benchmarkId } = await benchmarkOn(api, [{ input: { prompt: 'patient' }, expected: { caption: 'patient' } }], {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/hang-once` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { maxAttempts: 1 },
    });
    const runId = await startOk(api, benchmarkId);
    const calls = () => endpoints.sentTo<TargetCall>('/target/hang-once').filter((r) => r.body.item.input.prompt === 'patient').length;
    await waitUntil(() => calls() >= 1, 60_000);

    if (e2eMode() === 'all-in-one') {
      await ctx.stack.restart();
    } else {
      await ctx.stack.killApp('benchmark-worker', 'SIGTERM');
      await ctx.stack.startApp('benchmark-worker');
    }

    const run = await runEnds(api, benchmarkId, runId, 90_000);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 1, completed: 1 } });
    const [task] = await allTasks(api, benchmarkId, runId);
    expect(task).toMatchObject({ status: 'completed', attempts: 1, error: null });
    expect(calls()).toBe(2);
  });

  async function crashTheTaskProcess(): Promise<void> {
    if (e2eMode() === 'all-in-one') {
      await ctx.stack.kill('SIGKILL');
      await ctx.stack.restart();
    } else {
      await ctx.stack.killApp('benchmark-worker', 'SIGKILL');
      await ctx.stack.startApp('benchmark-worker');
    }
  }
});

async function waitUntil(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
