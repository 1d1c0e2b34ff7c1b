import { compileInThisThread } from '@cinetrace/scorers';
import { expect } from '@jest/globals';
import type { StreamRecord } from '@cinetrace/bus';
import { Patterns, type EvaluationRunFact, type EvaluationsRecordRequest, type GateBenchmarkFact, type ProjectContext, type TaskEvent, type TaskView } from '@cinetrace/contracts';
import { aProjectContext, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { aBenchmarkInput, aBenchmarkServiceEnv, aDatasetInput, aFakeBus, captionItems, RecordingTaskQueue, sendAllFacts } from '../benchmark-service.fixtures';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { BenchmarksService } from '../benchmarks/benchmarks.service';
import { DatasetsService } from '../datasets/datasets.service';
import { TaskDispatcher } from '../execution/task-dispatcher';
import { PromptSource } from '../runs/prompt-source';
import { RunAnnotations } from '../runs/run-annotations';
import { RunsService } from '../runs/runs.service';
import { TaskEventsHandler } from '../runs/task-events.handler';
import { oldestFacts } from '../store/fact-outbox';
import { FactRelay } from './fact-relay';

const PROMPT_ID = `prm_${'0'.repeat(26)}`;

const finished = (task: TaskView, projectId: string, status: 'completed' | 'failed' = 'completed', score = 1): TaskEvent => ({
  kind: 'finished',
  taskId: task.id,
  runId: task.runId,
  projectId,
  status,
  attempts: 1,
  output: 'a caption',
  scores: [{ scorer: 'exact_match', score, passed: score === 1, details: null, error: null }],
  error: status === 'failed' ? 'the target answered 500' : null,
  usage: null,
  costUsd: null,
  traceId: `trace_${task.id}`,
  startedAt: Date.now() - 10,
  finishedAt: Date.now(),
});

// What benchmark-service tells prompt-service (a release's gate) through its outbox, on both
// stores: queued with the change that makes it, sent by the relay, kept until the receiver answered.
describe.each(TEST_STORES)('FactRelay on %s', (kind) => {
  let store: TestStore;
  let ctx: ProjectContext;
  let projects = 0;
  let datasets: DatasetsService;
  let benchmarks: BenchmarksService;
  let runs: RunsService;
  let taskEvents: TaskEventsHandler;
  let facts: FactRelay;
  /** prompt-service, faked: it answers unless `refuse` is set, and remembers what it was told. */
  let refuse: Error | null;
  let told: EvaluationsRecordRequest[];

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(async () => {
    ctx = aProjectContext(`prj_facts_${++projects}`);
    refuse = null;
    told = [];
    const { bus } = aFakeBus({
      [Patterns.PromptGet]: (request) => ({ id: (request as { id: string }).id, version: 2, content: 'A {{subject}}' }),
      [Patterns.EvaluationsRecord]: (request) => {
        if (refuse) throw refuse;
        told.push(request as EvaluationsRecordRequest);
        return { taken: 0 };
      },
      [Patterns.SecretReferencesRecord]: () => ({ taken: 0 }),
    });
    const queue = new RecordingTaskQueue();
    const env = aBenchmarkServiceEnv();
    facts = new FactRelay(store.dataSource, bus);
    datasets = new DatasetsService(store.dataSource, facts);
    benchmarks = new BenchmarksService(store.dataSource, env, queue, bus, compileInThisThread, facts);
    runs = new RunsService(store.dataSource, new TaskDispatcher(store.dataSource, queue), new PromptSource(bus), new RunAnnotations(store.dataSource, bus, env), env);
    taskEvents = new TaskEventsHandler(store.dataSource, new TaskDispatcher(store.dataSource, queue), facts);
    // What earlier tests left waiting is sent now: each test sees only what it made.
    await sendAllFacts(facts);
    told = [];
  });

  const report = (...events: TaskEvent[]) => taskEvents.handle(events.map((value): StreamRecord<TaskEvent> => ({ key: value.taskId, value })));
  const tasksOf = async (benchmarkId: string) => (await runs.listTasks(ctx, benchmarkId, {}, { limit: 100 })).items;
  const runsTold = (): EvaluationRunFact[] => told.flatMap((request) => request.runs);
  const benchmarksTold = (): GateBenchmarkFact[] => told.flatMap((request) => request.benchmarks);
  const aPromptBenchmark = async (items: number) => {
    const dataset = await datasets.create(ctx, aDatasetInput({ items: captionItems(items) }));
    return benchmarks.create(ctx, aBenchmarkInput(dataset.id, { target: { type: 'dataset', promptId: PROMPT_ID } }));
  };

  it('tells prompt-service of a completed run of a prompt: its coverage, its scores, when it finished', async () => {
    const benchmark = await aPromptBenchmark(2);
    const run = await runs.start(ctx, benchmark.id, {});
    const [one, two] = await tasksOf(benchmark.id);
    await report(finished(one, ctx.projectId, 'completed', 1), finished(two, ctx.projectId, 'completed', 0));
    await sendAllFacts(facts);

    expect(runsTold()).toEqual([
      {
        id: run.id,
        projectId: ctx.projectId,
        benchmarkId: benchmark.id,
        promptId: PROMPT_ID,
        promptVersion: 2,
        datasetId: benchmark.datasetId,
        datasetVersion: 1,
        items: 2,
        datasetItems: 2,
        finishedAt: expect.any(Number),
        scores: { exact_match: { mean: 0.5, passRate: 0.5 } },
      },
    ]);
    expect(benchmarksTold()).toEqual([{ id: benchmark.id, projectId: ctx.projectId, scorers: ['exact_match'], datasetId: benchmark.datasetId, datasetVersion: 1, deleted: false }]);
  });

  it('tells nothing of a run that failed, and tells the run once when its last event is delivered again', async () => {
    const failing = await aPromptBenchmark(1);
    await runs.start(ctx, failing.id, {});
    await report(finished((await tasksOf(failing.id))[0], ctx.projectId, 'failed', 0));

    const passing = await aPromptBenchmark(1);
    const run = await runs.start(ctx, passing.id, {});
    const [task] = await tasksOf(passing.id);
    await report(finished(task, ctx.projectId));
    await report(finished(task, ctx.projectId));
    await sendAllFacts(facts);

    expect(runsTold().map((r) => r.id)).toEqual([run.id]);
  });

  it("tells the benchmarks on a dataset its new version, and a benchmark's deletion", async () => {
    const benchmark = await aPromptBenchmark(1);
    await sendAllFacts(facts);
    await datasets.addItems(ctx, benchmark.datasetId, { items: captionItems(2, 1) });
    await sendAllFacts(facts);
    await benchmarks.delete(ctx, benchmark.id);
    await sendAllFacts(facts);

    // A fact is sent as its subject stands when it is sent: one state per send here.
    const states = benchmarksTold().filter((b) => b.id === benchmark.id);
    expect(states.map(({ datasetVersion, deleted }) => ({ datasetVersion, deleted }))).toEqual([
      { datasetVersion: 1, deleted: false },
      { datasetVersion: 2, deleted: false },
      { datasetVersion: 2, deleted: true },
    ]);
  });

  it('keeps what prompt-service did not take, and sends it again once it answers', async () => {
    const benchmark = await aPromptBenchmark(1);
    refuse = new Error('prompt-service did not answer');
    await expect(facts.sendBatch()).rejects.toThrow('prompt-service did not answer');
    expect((await oldestFacts(store.dataSource.manager, 1000)).some((f) => f.subjectId === benchmark.id)).toBe(true);

    refuse = null;
    await sendAllFacts(facts);
    expect(benchmarksTold().map((b) => b.id)).toEqual([benchmark.id]);
    expect(await oldestFacts(store.dataSource.manager, 1000)).toEqual([]);
  });

  it('sends what the change queued once started, and retries after a failure without being woken', async () => {
    refuse = new Error('prompt-service is starting');
    const relay = new FactRelay(
      store.dataSource,
      aFakeBus({
        [Patterns.EvaluationsRecord]: (request) => {
          if (refuse) throw refuse;
          told.push(request as EvaluationsRecordRequest);
          return { taken: 0 };
        },
        [Patterns.SecretReferencesRecord]: () => ({ taken: 0 }),
      }).bus,
    );
    const benchmark = await aPromptBenchmark(1);
    relay.onApplicationBootstrap();
    try {
      await relay.idle();
      expect(told).toEqual([]);
      refuse = null;
      // The first retry comes after OUTBOX_RELAY_TIMING.firstRetryMs, no wake needed.
      const deadline = Date.now() + 5_000;
      while (!benchmarksTold().some((b) => b.id === benchmark.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(benchmarksTold().map((b) => b.id)).toContain(benchmark.id);
    } finally {
      await relay.onApplicationShutdown();
    }
  });
});
