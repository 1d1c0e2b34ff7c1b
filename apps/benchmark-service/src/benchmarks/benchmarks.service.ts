import {
  BENCHMARK_STATUSES,
  BenchmarkListFilters,
  BenchmarkListKey,
  BenchmarkView,
  CreateBenchmarkInput,
  DeletedView,
  DomainError,
  FieldError,
  Page,
  PageRequest,
  Patterns,
  ProjectContext,
  rowsForPage,
  RUNNER_DEFAULTS,
  SecretUse,
  SecretUsesCheckRequest,
  toPage,
} from '@cinetrace/contracts';
import { BusClient } from '@cinetrace/bus';
import { newId } from '@cinetrace/ids';
import { inTransaction, toIso } from '@cinetrace/persistence';
import { checkOutboundUrl } from '@cinetrace/outbound';
import { type SchemaCompiler, ScorerSpec, scorerSchemaErrors, validateScorers } from '@cinetrace/scorers';
import { checkInput } from '@cinetrace/validation';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { BenchmarkServiceEnv } from '../benchmark-service.env';
import { insertBenchmarkSecrets } from '../store/benchmark-secrets.queries';
import { Benchmark } from '../store/benchmark.entity';
import { findLiveBenchmark, insertBenchmark, listLiveBenchmarks, lockLiveBenchmark, softDeleteBenchmark } from '../store/benchmarks.queries';
import { findDataset, lockDataset } from '../store/datasets.queries';
import { queueFacts } from '../store/fact-outbox';
import { FactRelay } from '../facts/fact-relay';
import { Run } from '../store/run.entity';
import { findRunsById } from '../store/runs.queries';
import { credentialUses } from './credential-uses';
import { TaskQueue } from '../execution/task-queue';
import { cancelActiveRun } from '../runs/run-cancellation';
import { countRunsEntered, countTasksEntered } from '@cinetrace/metrics';
import { toRunView } from '../runs/run.views';
import { withRunnerOverrides } from './runner-settings';
import { SchemaThreads } from './schema-compiler';
import { unknownTargetPrompt } from './target-prompt';
import { validateTarget } from './target-rules';

/** Benchmarks: what to run (dataset, target, scorers) and how (runner); each shows its latest run. */
@Injectable()
export class BenchmarksService {
  private readonly logger = new Logger(BenchmarksService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly env: BenchmarkServiceEnv,
    private readonly queue: TaskQueue,
    private readonly bus: BusClient,
    @Inject(SchemaThreads) private readonly schemas: SchemaCompiler,
    private readonly facts: FactRelay,
  ) {}

  /** Every offending field in one answer: the body's shape, the scorers, the target (and its prompt) and the dataset. */
  async create(ctx: ProjectContext, raw: unknown): Promise<BenchmarkView> {
    const { value: input, errors } = await checkInput(CreateBenchmarkInput, raw);
    const allowPrivate = this.env.OUTBOUND_ALLOW_PRIVATE;
    const named = new Set(errors.map((e) => e.path));
    const scorers = validateScorers(input.scorers, 'scorers');
    const schemaErrors = await scorerSchemaErrors(input.scorers, this.schemas, scorers.ok ? [] : scorers.errors);
    errors.push(...inScorerOrder([...(scorers.ok ? scorerUrlErrors(scorers.scorers, allowPrivate) : scorers.errors), ...schemaErrors]));
    const target = isObject(input.target) ? validateTarget(input.target, { allowPrivate }) : undefined;
    if (target && !target.ok) errors.push(...target.errors);
    if (typeof input.datasetId === 'string' && !named.has('datasetId')) {
      const dataset = await findDataset(this.dataSource.manager, ctx.projectId, input.datasetId);
      if (!dataset) errors.push({ path: 'datasetId', message: `names no dataset of this project ('${input.datasetId}')` });
    }
    // prompt-service says whether the prompt, version or release the target names exists.
    if (target?.ok) errors.push(...(await unknownTargetPrompt(this.bus, ctx, target.target)));
    // Only a benchmark valid in every other way is worth asking project-service about its secrets.
    const uses = scorers.ok && target?.ok && !errors.length ? credentialUses(target.target, scorers.scorers) : [];
    if (uses.length) errors.push(...(await this.unusableSecrets(ctx, uses)));
    const unique = errors.filter((e, i) => errors.findIndex((o) => o.path === e.path) === i);
    if (unique.length || !scorers.ok || !target?.ok) throw DomainError.validation(unique, 'The benchmark is not valid');

    const now = Date.now();
    const benchmark: Benchmark = {
      id: newId('bm'),
      projectId: ctx.projectId,
      name: input.name,
      description: input.description ?? '',
      datasetId: input.datasetId,
      scorers: scorers.scorers,
      target: target.target,
      runner: withRunnerOverrides(RUNNER_DEFAULTS, input.runner),
      status: 'idle',
      lastRunId: null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    await inTransaction(this.dataSource, async (tx) => {
      // The dataset may have been deleted since it was checked: re-check inside the transaction.
      if (!(await lockDataset(tx, ctx.projectId, input.datasetId))) {
        throw DomainError.validation([{ path: 'datasetId', message: `names no dataset of this project ('${input.datasetId}')` }]);
      }
      await insertBenchmark(tx, benchmark);
      const names = [...new Set(uses.map((u) => u.name))];
      if (names.length)
        await insertBenchmarkSecrets(
          tx,
          names.map((secretName) => ({ benchmarkId: benchmark.id, secretName, orgId: ctx.orgId })),
        );
      // prompt-service judges gates by it; project-service refuses to delete a secret it names.
      await queueFacts(tx, 'gate-benchmark', [benchmark.id]);
      if (names.length) await queueFacts(tx, 'secret-references', [benchmark.id]);
    });
    await this.facts.flush();
    return toBenchmarkView(benchmark, null);
  }

  async get(ctx: ProjectContext, id: string): Promise<BenchmarkView> {
    const [view] = await this.withLastRuns([await this.findLive(ctx, id)]);
    return view;
  }

  async list(ctx: ProjectContext, filters: BenchmarkListFilters, page: PageRequest<BenchmarkListKey>): Promise<Page<BenchmarkView, BenchmarkListKey>> {
    if (filters.status !== undefined && !(BENCHMARK_STATUSES as readonly string[]).includes(filters.status)) {
      throw DomainError.validation([{ path: 'status', message: `must be one of: ${BENCHMARK_STATUSES.join(', ')}` }]);
    }
    const rows = await listLiveBenchmarks(this.dataSource.manager, ctx.projectId, { status: filters.status }, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: await this.withLastRuns(items), nextKey };
  }

  /** Soft delete; an active run is cancelled in the same transaction, then its executors are told to stop. */
  async delete(ctx: ProjectContext, id: string): Promise<DeletedView> {
    const now = Date.now();
    const cancelled = await inTransaction(this.dataSource, async (tx) => {
      const benchmark = await lockLiveBenchmark(tx, ctx.projectId, id);
      if (!benchmark) throw notFound(id);
      const run = await cancelActiveRun(tx, benchmark.id, now);
      await softDeleteBenchmark(tx, benchmark.id, now);
      await queueFacts(tx, 'gate-benchmark', [benchmark.id]);
      await queueFacts(tx, 'secret-references', [benchmark.id]);
      return run;
    });
    await this.facts.flush();
    if (cancelled) {
      countRunsEntered('cancelled');
      countTasksEntered('cancelled', cancelled.tasksCancelled);
      await this.queue.cancel(cancelled.runId, cancelled.handedOver).catch((err) => {
        // The tasks are cancelled either way: results that still arrive for them are ignored.
        this.logger.warn(`Run ${cancelled.runId}: executors not told to stop: ${(err as Error).message}`);
      });
    }
    return { id, deleted: true };
  }

  /** project-service owns secrets: it says which references name no secret of the organization, or a host the secret refuses. */
  private async unusableSecrets(ctx: ProjectContext, uses: SecretUse[]): Promise<FieldError[]> {
    const request: SecretUsesCheckRequest = { ctx, uses };
    const { errors } = await this.bus.request(Patterns.SecretUsesCheck, request);
    return errors;
  }

  private async withLastRuns(benchmarks: Benchmark[]): Promise<BenchmarkView[]> {
    const ids = benchmarks.map((b) => b.lastRunId).filter((id): id is string => id !== null);
    const runs = await findRunsById(this.dataSource.manager, ids);
    const byId = new Map(runs.map((run) => [run.id, run]));
    return benchmarks.map((b) => toBenchmarkView(b, b.lastRunId === null ? null : (byId.get(b.lastRunId) ?? null)));
  }

  private async findLive(ctx: ProjectContext, id: string): Promise<Benchmark> {
    const benchmark = await findLiveBenchmark(this.dataSource.manager, ctx.projectId, id);
    if (!benchmark) throw notFound(id);
    return benchmark;
  }
}

/** Errors of the scorers by the scorer they name (a stable sort): a schema's compile error where its scorer stands. */
function inScorerOrder(errors: FieldError[]): FieldError[] {
  const index = (e: FieldError) => Number(/^scorers\[(\d+)\]/.exec(e.path)?.[1] ?? -1);
  return errors
    .map((e, i) => ({ e, i }))
    .sort((a, b) => index(a.e) - index(b.e) || a.i - b.i)
    .map(({ e }) => e);
}

const notFound = (id: string) => DomainError.notFound(`No benchmark with id '${id}' in this project`);

function toBenchmarkView(b: Benchmark, lastRun: Run | null): BenchmarkView {
  return {
    id: b.id,
    projectId: b.projectId,
    name: b.name,
    description: b.description,
    datasetId: b.datasetId,
    scorers: b.scorers as unknown as BenchmarkView['scorers'],
    target: b.target as unknown as Record<string, unknown>,
    runner: b.runner,
    status: b.status,
    lastRun: lastRun === null ? null : toRunView(lastRun),
    createdAt: toIso(b.createdAt),
    updatedAt: toIso(b.updatedAt),
  };
}

/** Scorers that call out (llm_judge, http) follow the same address rules as targets. */
function scorerUrlErrors(scorers: ScorerSpec[], allowPrivate: boolean): FieldError[] {
  const errors: FieldError[] = [];
  scorers.forEach((scorer, i) => {
    const field = scorer.type === 'llm_judge' ? 'baseUrl' : scorer.type === 'http' ? 'url' : undefined;
    if (!field) return;
    const check = checkOutboundUrl((scorer.config as unknown as Record<string, string>)[field], { allowPrivate });
    if (!check.ok) errors.push({ path: `scorers[${i}].config.${field}`, message: check.message });
  });
  return errors;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
