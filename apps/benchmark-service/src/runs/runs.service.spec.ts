import { compileInThisThread } from '@cinetrace/scorers';
import { expect } from '@jest/globals';
import type { StreamRecord } from '@cinetrace/bus';
import { ANNOTATION_COUNT_MEDIA_MAX, DomainError, ErrorCode, Patterns, type ProjectContext, type PageRequest, type TaskEvent, type TaskView } from '@cinetrace/contracts';
import { aProjectContext, allPages, domainErrorOf, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { aBenchmarkInput, aBenchmarkServiceEnv, aDatasetInput, aFakeBus, anIdleFactRelay, captionItems, RecordingTaskQueue } from '../benchmark-service.fixtures';
import type { BenchmarkServiceEnv } from '../benchmark-service.env';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { BenchmarksService } from '../benchmarks/benchmarks.service';
import { DatasetsService } from '../datasets/datasets.service';
import { TaskDispatcher } from '../execution/task-dispatcher';
import { PromptSource } from './prompt-source';
import { RunAnnotations } from './run-annotations';
import { Run } from '../store/run.entity';
import { RunsService } from './runs.service';
import { TaskEventsHandler } from './task-events.handler';
import { recordRunMedia } from '../store/run-media.queries';
import { Task } from '../store/task.entity';

const PROMPT_ID = `prm_${'0'.repeat(26)}`;
const GONE_PROMPT_ID = `prm_${'1'.repeat(26)}`;

/** What an executor reports of a task: an attempt began, or the task ended. */
const started = (task: TaskView, projectId: string, attempt = 1): TaskEvent => ({ kind: 'started', taskId: task.id, runId: task.runId, projectId, attempt, at: Date.now() });
const finished = (task: TaskView, projectId: string, status: 'completed' | 'failed' = 'completed', output: unknown = 'a caption'): TaskEvent => ({
  kind: 'finished',
  taskId: task.id,
  runId: task.runId,
  projectId,
  status,
  attempts: 1,
  output,
  scores: [{ scorer: 'exact_match', score: status === 'completed' ? 1 : 0, passed: status === 'completed', details: null, error: null }],
  error: status === 'failed' ? 'the target answered 500' : null,
  usage: null,
  costUsd: 0.01,
  traceId: `trace_${task.id}`,
  startedAt: Date.now() - 10,
  finishedAt: Date.now(),
});

// benchmark-service's runs on both of its stores: one active run per benchmark, quotas, the run's
// statuses as task events move it, cancellation, paging of runs and tasks.
describe.each(TEST_STORES)('RunsService on %s', (kind) => {
  let store: TestStore;
  let queue: RecordingTaskQueue;
  let datasets: DatasetsService;
  let benchmarks: BenchmarksService;
  let runs: RunsService;
  let taskEvents: TaskEventsHandler;
  let projects = 0;
  let ctx: ProjectContext;
  /** What media-service answers for label counts; throws to stand for one that does not answer. */
  let countLabels: (request: unknown) => unknown;
  let busRequests: Array<{ pattern: string; request: unknown }>;

  const runsWith = (quotas: Partial<BenchmarkServiceEnv> = {}) => {
    const { bus, requests } = aFakeBus({
      [Patterns.MediaAnnotationCounts]: (request) => countLabels(request),
      [Patterns.PromptGet]: (request) => {
        const { id } = request as { id: string };
        if (id !== PROMPT_ID) throw DomainError.notFound(`No prompt with id '${id}' in this project`);
        return { id, version: 3, content: 'A {{subject}} at dawn' };
      },
    });
    busRequests = requests;
    const env = aBenchmarkServiceEnv(quotas);
    return new RunsService(store.dataSource, new TaskDispatcher(store.dataSource, queue), new PromptSource(bus), new RunAnnotations(store.dataSource, bus, env), env);
  };
  const aBenchmark = async (items = 3, overrides: Record<string, unknown> = {}) => {
    const dataset = await datasets.create(ctx, aDatasetInput({ items: captionItems(items) }));
    return benchmarks.create(ctx, aBenchmarkInput(dataset.id, overrides));
  };
  const tasksOf = async (benchmarkId: string) => (await runs.listTasks(ctx, benchmarkId, {}, { limit: 100 })).items;
  const report = (...events: TaskEvent[]) => taskEvents.handle(events.map((value): StreamRecord<TaskEvent> => ({ key: value.taskId, value })));
  const runOf = async (benchmarkId: string) => (await benchmarks.get(ctx, benchmarkId)).lastRun!;

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    datasets = new DatasetsService(store.dataSource, anIdleFactRelay(store.dataSource));
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++projects}`);
    queue = new RecordingTaskQueue();
    countLabels = () => ({ total: 0, labels: {}, labelsOmitted: 0 });
    // Every prompt exists when its benchmark is created: GONE_PROMPT_ID is deleted by the time a run starts.
    const promptsAtCreate = aFakeBus({ [Patterns.PromptGet]: (request) => ({ id: (request as { id: string }).id, version: 3, content: '' }) });
    benchmarks = new BenchmarksService(store.dataSource, aBenchmarkServiceEnv(), queue, promptsAtCreate.bus, compileInThisThread, anIdleFactRelay(store.dataSource));
    runs = runsWith();
    taskEvents = new TaskEventsHandler(store.dataSource, new TaskDispatcher(store.dataSource, queue), anIdleFactRelay(store.dataSource));
  });

  describe('start', () => {
    it('queues a run of a task per item and hands over as many as the run concurrency', async () => {
      const benchmark = await aBenchmark(3);
      const started = await runs.start(ctx, benchmark.id, {});

      expect(started).toMatchObject({ benchmarkId: benchmark.id, status: 'queued', taskCount: 3 });
      expect(await runOf(benchmark.id)).toMatchObject({ id: started.id, status: 'queued', counts: { total: 3, pending: 3, running: 0 } });
      expect((await benchmarks.get(ctx, benchmark.id)).status).toBe('queued');
      expect(queue.enqueued).toHaveLength(2);
    });

    it('refuses a second run while one is queued or running, with run_in_progress', async () => {
      const benchmark = await aBenchmark();
      const first = await runs.start(ctx, benchmark.id, {});
      await expect(runs.start(ctx, benchmark.id, {})).rejects.toMatchObject({
        code: ErrorCode.RunInProgress,
        detail: `Run '${first.id}' of this benchmark is queued`,
      });
    });

    it('starts one run of starts that race each other; the others get run_in_progress', async () => {
      const benchmark = await aBenchmark();
      const outcomes = await Promise.allSettled(Array.from({ length: 4 }, () => runs.start(ctx, benchmark.id, {})));

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      const refusals = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refusals.map((o) => (o.reason as DomainError).code)).toEqual([ErrorCode.RunInProgress, ErrorCode.RunInProgress, ErrorCode.RunInProgress]);
      expect((await runs.listRuns(ctx, benchmark.id, { limit: 10 })).items).toHaveLength(1);
    });

    it('takes a subset of the items, and refuses ids that name no item of the dataset', async () => {
      const benchmark = await aBenchmark(5);
      expect(await runs.start(ctx, benchmark.id, { rowSubset: { offset: 1, limit: 2 } })).toMatchObject({ taskCount: 2 });
      expect((await tasksOf(benchmark.id)).map((t) => t.itemIndex)).toEqual([1, 2]);

      const other = await aBenchmark(2);
      await expect(runs.start(ctx, other.id, { rowSubset: { itemIds: ['dsi_nothing'] } })).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        errors: [{ path: 'rowSubset.itemIds[0]', message: expect.stringContaining("('dsi_nothing')") }],
      });
    });

    it("takes the benchmark's prompt as it is at the start, and refuses a prompt that no longer exists", async () => {
      const withPrompt = await aBenchmark(1, { target: { type: 'dataset', promptId: PROMPT_ID } });
      const run = await runs.start(ctx, withPrompt.id, {});
      expect((await store.dataSource.manager.findOneByOrFail(Run, { id: run.id })).plan.prompt).toEqual({ id: PROMPT_ID, version: 3, content: 'A {{subject}} at dawn' });

      const gone = await aBenchmark(1, { target: { type: 'dataset', promptId: GONE_PROMPT_ID } });
      await expect(runs.start(ctx, gone.id, {})).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        errors: [{ path: 'target.promptId', message: `the benchmark's prompt '${GONE_PROMPT_ID}' no longer exists` }],
      });
    });
  });

  describe('quotas', () => {
    it('refuses a run past QUOTA_ACTIVE_RUNS with quota_exceeded, Retry-After 30 s', async () => {
      runs = runsWith({ QUOTA_ACTIVE_RUNS: 2 });
      const [a, b, c] = [await aBenchmark(), await aBenchmark(), await aBenchmark()];
      await runs.start(ctx, a.id, {});
      await runs.start(ctx, b.id, {});

      await expect(runs.start(ctx, c.id, {})).rejects.toMatchObject({
        code: ErrorCode.QuotaExceeded,
        detail: 'QUOTA_ACTIVE_RUNS: the project already has 2 runs queued or running (limit 2)',
        retryAfter: 30,
      });
      // Another project has its own slots.
      ctx = aProjectContext('prj_quota_elsewhere');
      expect(await runs.start(ctx, (await aBenchmark()).id, {})).toMatchObject({ status: 'queued' });
    });

    it('refuses a run past QUOTA_STARTS_PER_HOUR, ended runs counted, until the oldest start leaves the hour', async () => {
      runs = runsWith({ QUOTA_STARTS_PER_HOUR: 2 });
      for (let i = 0; i < 2; i++) {
        const benchmark = await aBenchmark(1);
        await runs.start(ctx, benchmark.id, {});
        await benchmarks.delete(ctx, benchmark.id); // cancels the run: it no longer holds an active slot
      }
      const refusal = await domainErrorOf(runs.start(ctx, (await aBenchmark()).id, {}));
      expect(refusal).toMatchObject({ code: ErrorCode.QuotaExceeded, detail: 'QUOTA_STARTS_PER_HOUR: the project started 2 runs in the last hour (limit 2)' });
      expect(refusal.retryAfter).toBeGreaterThan(3590);
      expect(refusal.retryAfter).toBeLessThanOrEqual(3600);
    });

    it('refuses a run of more tasks than QUOTA_TASKS_PER_RUN, and takes it on a subset that fits', async () => {
      runs = runsWith({ QUOTA_TASKS_PER_RUN: 2 });
      const benchmark = await aBenchmark(3);
      await expect(runs.start(ctx, benchmark.id, {})).rejects.toMatchObject({
        code: ErrorCode.QuotaExceeded,
        detail: expect.stringContaining('QUOTA_TASKS_PER_RUN: the run would have 3 tasks (limit 2)'),
        retryAfter: 3600,
      });
      expect(await runs.start(ctx, benchmark.id, { rowSubset: { limit: 2 } })).toMatchObject({ taskCount: 2 });
    });
  });

  describe('statuses', () => {
    it('goes queued → running → completed as its tasks report, then frees the benchmark for another run', async () => {
      const benchmark = await aBenchmark(2);
      await runs.start(ctx, benchmark.id, {});
      const tasks = await tasksOf(benchmark.id);

      await report(started(tasks[0], ctx.projectId));
      expect(await runOf(benchmark.id)).toMatchObject({ status: 'running', counts: { pending: 1, running: 1 } });
      await report(finished(tasks[0], ctx.projectId), started(tasks[1], ctx.projectId), finished(tasks[1], ctx.projectId));

      const run = await runOf(benchmark.id);
      expect(run).toMatchObject({ status: 'completed', counts: { total: 2, completed: 2, pending: 0, running: 0 }, scores: { exact_match: { mean: 1, passRate: 1 } } });
      expect(run.finishedAt).not.toBeNull();
      expect((await benchmarks.get(ctx, benchmark.id)).status).toBe('completed');
      expect(await runs.start(ctx, benchmark.id, {})).toMatchObject({ status: 'queued' });
    });

    it('never goes back from completed: an event delivered again changes nothing', async () => {
      const benchmark = await aBenchmark(1);
      await runs.start(ctx, benchmark.id, {});
      const [task] = await tasksOf(benchmark.id);
      await report(started(task, ctx.projectId), finished(task, ctx.projectId));
      const completed = await runOf(benchmark.id);

      await report(started(task, ctx.projectId, 2), finished(task, ctx.projectId, 'failed'));

      expect(await runOf(benchmark.id)).toEqual(completed);
      expect((await tasksOf(benchmark.id))[0]).toMatchObject({ status: 'completed', attempts: 1 });
    });

    it('ends failed when any task failed', async () => {
      const benchmark = await aBenchmark(2);
      await runs.start(ctx, benchmark.id, {});
      const [one, two] = await tasksOf(benchmark.id);
      await report(finished(one, ctx.projectId), finished(two, ctx.projectId, 'failed'));
      expect(await runOf(benchmark.id)).toMatchObject({ status: 'failed', counts: { completed: 1, failed: 1 } });
    });

    it('is cancelled with its benchmark: open tasks cancelled, executors told, late results ignored', async () => {
      const benchmark = await aBenchmark(3);
      const run = await runs.start(ctx, benchmark.id, {});
      const tasks = await tasksOf(benchmark.id);
      await report(started(tasks[0], ctx.projectId));

      await benchmarks.delete(ctx, benchmark.id);
      await report(finished(tasks[0], ctx.projectId));

      // The two handed over (the run's concurrency) are the ones the executors must drop.
      expect(queue.cancelled.map((c) => ({ runId: c.runId, taskIds: [...c.taskIds].sort() }))).toEqual([{ runId: run.id, taskIds: [...queue.enqueued].sort() }]);
      expect(queue.enqueued).toHaveLength(2);
      expect(await store.dataSource.manager.findOneByOrFail(Run, { id: run.id })).toMatchObject({ status: 'cancelled', cancelled: 3, completed: 0, activeBenchmarkId: null });
      const cancelledTasks = await store.dataSource.manager.findBy(Task, { runId: run.id });
      expect(cancelledTasks.map((t) => t.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    });
  });

  describe('lists', () => {
    it('pages tasks by item index and runs newest first, each once', async () => {
      const benchmark = await aBenchmark(5);
      const made = [];
      for (let i = 0; i < 3; i++) {
        made.push(await runs.start(ctx, benchmark.id, {}));
        for (const task of await tasksOf(benchmark.id)) await report(finished(task, ctx.projectId));
      }

      const taskPages = await allPages((page: PageRequest<number>) => runs.listTasks(ctx, benchmark.id, {}, page), 2);
      expect(taskPages.map((page) => page.map((t) => t.itemIndex))).toEqual([[0, 1], [2, 3], [4]]);
      expect(new Set(taskPages.flat().map((t) => t.runId))).toEqual(new Set([made[2].id]));

      const runPages = await allPages((page: PageRequest<string>) => runs.listRuns(ctx, benchmark.id, page), 2);
      expect(runPages.flat().map((r) => r.id)).toEqual(made.map((r) => r.id).reverse());
      expect(runPages.map((page) => page.length)).toEqual([2, 1]);
    });

    it("lists an earlier run's tasks by runId, filtered by status, and refuses a run of another benchmark", async () => {
      const benchmark = await aBenchmark(2);
      const first = await runs.start(ctx, benchmark.id, {});
      const [one, two] = await tasksOf(benchmark.id);
      await report(finished(one, ctx.projectId), finished(two, ctx.projectId, 'failed'));
      await runs.start(ctx, benchmark.id, {});

      const failed = await runs.listTasks(ctx, benchmark.id, { runId: first.id, status: 'failed' }, { limit: 10 });
      expect(failed.items.map((t) => t.id)).toEqual([two.id]);
      expect(failed.summary).toMatchObject({ id: first.id, status: 'failed' });

      const other = await aBenchmark(1);
      await expect(runs.listTasks(ctx, other.id, { runId: first.id }, { limit: 10 })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    });
  });

  describe('annotation counts', () => {
    const media = (n: number) => `med_${String(n).padStart(26, '0')}`;
    const countRequests = () => busRequests.filter((r) => r.pattern === Patterns.MediaAnnotationCounts).map((r) => r.request);

    it("asks media-service once per summary about the media the run's outputs name, each once, and shows its counts", async () => {
      const benchmark = await aBenchmark(3);
      const run = await runs.start(ctx, benchmark.id, {});
      const [one, two, three] = await tasksOf(benchmark.id);
      await report(finished(one, ctx.projectId, 'completed', { video: { mediaId: media(2) } }));
      // Reported again (an event read twice), and a failed task's output counts too.
      await report(
        finished(one, ctx.projectId, 'completed', { video: { mediaId: media(2) } }),
        finished(two, ctx.projectId, 'failed', [{ mediaId: media(1) }, { mediaId: media(2) }]),
      );
      await report(finished(three, ctx.projectId, 'completed', { caption: 'no media' }));
      countLabels = () => ({ total: 3, labels: { flicker: 2, blur: 1 }, labelsOmitted: 0 });

      const page = await runs.listTasks(ctx, benchmark.id, {}, { limit: 1 });
      expect(page.summary).toEqual({
        id: run.id,
        status: 'failed',
        counts: expect.any(Object),
        annotations: { total: 3, labels: { flicker: 2, blur: 1 }, labelsOmitted: 0, mediaOmitted: 0 },
      });
      expect(countRequests()).toEqual([{ ctx, mediaIds: [media(1), media(2)] }]);
    });

    it('asks about the first 10,000 media by id and says how many more the outputs named', async () => {
      const benchmark = await aBenchmark(1);
      const run = await runs.start(ctx, benchmark.id, {});
      const ids = Array.from({ length: ANNOTATION_COUNT_MEDIA_MAX + 2 }, (_, i) => media(ANNOTATION_COUNT_MEDIA_MAX + 2 - i));
      await recordRunMedia(store.dataSource.manager, run.id, ids);
      countLabels = () => ({ total: 1, labels: { blur: 1 }, labelsOmitted: 0 });

      expect((await runs.listTasks(ctx, benchmark.id, {}, { limit: 1 })).summary?.annotations).toEqual({ total: 1, labels: { blur: 1 }, labelsOmitted: 0, mediaOmitted: 2 });
      const [asked] = countRequests() as Array<{ mediaIds: string[] }>;
      expect(asked.mediaIds).toEqual([...ids].sort().slice(0, ANNOTATION_COUNT_MEDIA_MAX));
    });

    it('counts zero without asking when the outputs name no media, and shows null when media-service does not answer', async () => {
      const plain = await aBenchmark(1);
      await runs.start(ctx, plain.id, {});
      await report(finished((await tasksOf(plain.id))[0], ctx.projectId));
      countLabels = () => {
        throw new Error('media-service is away');
      };
      expect((await runs.listTasks(ctx, plain.id, {}, { limit: 1 })).summary?.annotations).toEqual({ total: 0, labels: {}, labelsOmitted: 0, mediaOmitted: 0 });
      expect(countRequests()).toEqual([]);

      const withMedia = await aBenchmark(1);
      await runs.start(ctx, withMedia.id, {});
      await report(finished((await tasksOf(withMedia.id))[0], ctx.projectId, 'completed', { mediaId: media(3) }));
      const page = await runs.listTasks(ctx, withMedia.id, {}, { limit: 1 });
      expect(page.summary).toMatchObject({ status: 'completed', annotations: null });
      expect(page.items).toHaveLength(1);
    });
  });
});
