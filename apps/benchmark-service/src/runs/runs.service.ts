import {
  DomainError,
  ErrorCode,
  FieldError,
  Page,
  PageRequest,
  ProjectContext,
  rowsForPage,
  RunListKey,
  RunStartedView,
  RunView,
  StartRunInput,
  TASK_STATUSES,
  TaskListFilters,
  TaskListKey,
  TaskOutputReply,
  TaskOutputRequest,
  TaskPage,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { checkInput } from '@cinetrace/validation';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { BenchmarkServiceEnv } from '../benchmark-service.env';
import { Benchmark } from '../store/benchmark.entity';
import { findLiveBenchmark, lockLiveBenchmark, markBenchmarkQueued } from '../store/benchmarks.queries';
import { withRunnerOverrides } from '../benchmarks/runner-settings';
import { findDataset, lockDataset } from '../store/datasets.queries';
import { TaskDispatcher } from '../execution/task-dispatcher';
import { PromptSource } from './prompt-source';
import { RunAnnotations } from './run-annotations';
import { checkStartQuotas, checkTaskCount, RunQuotas } from './run-quotas';
import { Run, RunPlan } from '../store/run.entity';
import { findActiveRunOf, findRunOfBenchmark, insertRun, listRunsOfBenchmark } from '../store/runs.queries';
import { toRunScores, toRunStartedView, toRunSummaryView, toRunView, toTaskView } from './run.views';
import { countRunsEntered, countTasksEntered } from '@cinetrace/metrics';
import { insertRunTasks } from '../store/insert-run-tasks';
import { selectItems } from './run-items';
import { Task } from '../store/task.entity';
import { findTaskOfItem, listTasksOfRun } from '../store/tasks.queries';

/** Runs of a benchmark: start (snapshot, limits, one at a time), lists of runs and tasks, cancellation. */
@Injectable()
export class RunsService {
  private readonly logger = new Logger(RunsService.name);
  private readonly quotas: RunQuotas;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly dispatcher: TaskDispatcher,
    private readonly prompts: PromptSource,
    private readonly annotations: RunAnnotations,
    env: BenchmarkServiceEnv,
  ) {
    this.quotas = { activeRuns: env.QUOTA_ACTIVE_RUNS, tasksPerRun: env.QUOTA_TASKS_PER_RUN, startsPerHour: env.QUOTA_STARTS_PER_HOUR };
  }

  async start(ctx: ProjectContext, benchmarkId: string, raw: unknown): Promise<RunStartedView> {
    const { value: input, errors } = await checkInput(StartRunInput, raw ?? {});
    const subset = input.rowSubset;
    if (subset?.itemIds !== undefined && (subset.offset !== undefined || subset.limit !== undefined)) {
      errors.push({ path: 'rowSubset', message: 'takes either itemIds or offset and limit, not both' });
    }
    if (errors.length) throw DomainError.validation(errors, 'The run is not valid');

    const live = await this.findLiveBenchmark(ctx, benchmarkId);
    // Asked before the transaction: a bus round-trip must not hold row locks.
    const { promptId, promptVersion, promptRelease } = live.target;
    const prompt = promptId ? await this.prompts.resolve(ctx, promptId, { version: promptVersion, release: promptRelease }) : null;

    let run: Run;
    try {
      run = await inTransaction(this.dataSource, (tx) => this.insertRun(tx, ctx, benchmarkId, input, prompt));
    } catch (err) {
      // Two starts raced past the check; the unique index let one win.
      if (isUniqueViolation(err)) throw new DomainError(ErrorCode.RunInProgress, 'A run of this benchmark is already queued or running');
      throw err;
    }
    countRunsEntered('queued');
    countTasksEntered('pending', run.total);
    await this.dispatcher.fill(run.id).catch((err) => this.logger.warn(`Run ${run.id}: first tasks not handed over yet: ${(err as Error).message}`));
    return toRunStartedView(run);
  }

  async listRuns(ctx: ProjectContext, benchmarkId: string, page: PageRequest<RunListKey>): Promise<Page<RunView, RunListKey>> {
    await this.findLiveBenchmark(ctx, benchmarkId);
    const rows = await listRunsOfBenchmark(this.dataSource.manager, ctx.projectId, benchmarkId, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toRunView), nextKey };
  }

  async listTasks(ctx: ProjectContext, benchmarkId: string, filters: TaskListFilters, page: PageRequest<TaskListKey>): Promise<TaskPage> {
    if (filters.status !== undefined && !(TASK_STATUSES as readonly string[]).includes(filters.status)) {
      throw DomainError.validation([{ path: 'status', message: `must be one of: ${TASK_STATUSES.join(', ')}` }]);
    }
    const benchmark = await this.findLiveBenchmark(ctx, benchmarkId);
    const runId = filters.runId ?? benchmark.lastRunId;
    if (runId === null) return { items: [], nextKey: null, summary: null };
    const run = await findRunOfBenchmark(this.dataSource.manager, ctx.projectId, benchmarkId, runId);
    if (!run) throw DomainError.notFound(`No run with id '${runId}' of this benchmark`);
    // The annotation counts' bus round trip runs while the page is read.
    const [rows, annotations] = await Promise.all([
      listTasksOfRun(this.dataSource.manager, run.id, filters.status as Task['status'] | undefined, page.after, rowsForPage(page)),
      this.annotations.countsOf(ctx, run.id),
    ]);
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.itemIndex);
    return { items: items.map(toTaskView), nextKey, summary: toRunSummaryView(run, annotations) };
  }

  /** An item's output in a run of the project, for a video scorer comparing with it (another project's run is not found). */
  async outputOfItem(request: TaskOutputRequest): Promise<TaskOutputReply> {
    const invalid = (['projectId', 'runId', 'itemId'] as const).filter((key) => typeof request?.[key] !== 'string');
    const errors: FieldError[] = invalid.map((path) => ({ path, message: 'must be a string' }));
    if (!Number.isSafeInteger(request?.itemIndex) || request.itemIndex < 0) errors.push({ path: 'itemIndex', message: 'must be an integer of 0 or more' });
    if (errors.length) throw DomainError.validation(errors);
    const task = await findTaskOfItem(this.dataSource.manager, request);
    if (!task) throw DomainError.notFound(`Run '${request.runId}' has no task for this item`);
    return { status: task.status, output: task.output ?? null };
  }

  private async insertRun(tx: EntityManager, ctx: ProjectContext, benchmarkId: string, input: StartRunInput, prompt: RunPlan['prompt']): Promise<Run> {
    const now = Date.now();
    const benchmark = await lockLiveBenchmark(tx, ctx.projectId, benchmarkId);
    if (!benchmark) throw benchmarkNotFound(benchmarkId);
    const active = await findActiveRunOf(tx, benchmark.id);
    if (active) throw new DomainError(ErrorCode.RunInProgress, `Run '${active.id}' of this benchmark is ${active.status}`);
    await checkStartQuotas(tx, ctx, this.quotas, now);
    const dataset = await lockDataset(tx, ctx.projectId, benchmark.datasetId);
    if (!dataset) throw new DomainError(ErrorCode.Conflict, `The benchmark's dataset '${benchmark.datasetId}' no longer exists`);
    const items = await selectItems(tx, dataset, input.rowSubset);
    checkTaskCount(items.length, this.quotas);

    const run: Run = {
      id: newId('run'),
      projectId: ctx.projectId,
      benchmarkId: benchmark.id,
      activeBenchmarkId: benchmark.id,
      status: 'queued',
      experiment: { ...(input.experiment?.name !== undefined ? { name: input.experiment.name } : {}), flags: input.experiment?.flags ?? {} },
      runner: withRunnerOverrides(benchmark.runner, input.runner),
      plan: { target: benchmark.target, scorers: benchmark.scorers, prompt },
      // The version rendered, in columns of its own: what a release's gate looks runs up by.
      promptId: prompt?.id ?? null,
      promptVersion: prompt?.version ?? null,
      datasetId: dataset.id,
      datasetVersion: dataset.version,
      total: items.length,
      pending: items.length,
      running: 0,
      completed: 0,
      failed: 0,
      cancelled: 0,
      handedOverThrough: -1,
      scoreTotals: {},
      costUsd: null,
      createdAt: now,
      startedAt: null,
      finishedAt: null,
    };
    await insertRun(tx, run);
    await insertRunTasks(
      tx,
      run,
      items.map((item) => item.index),
    );
    await markBenchmarkQueued(tx, benchmark.id, run.id, now);
    return run;
  }

  private async findLiveBenchmark(ctx: ProjectContext, id: string): Promise<Benchmark> {
    const benchmark = await findLiveBenchmark(this.dataSource.manager, ctx.projectId, id);
    if (!benchmark) throw benchmarkNotFound(id);
    return benchmark;
  }
}

const benchmarkNotFound = (id: string) => DomainError.notFound(`No benchmark with id '${id}' in this project`);
