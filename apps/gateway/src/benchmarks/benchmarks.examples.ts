import type { BenchmarkView, CreateBenchmarkInput, DeletedView, RunCountsView, RunStartedView, RunSummaryView, RunView, StartRunInput, TaskView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const scorers = [{ name: 'mentions-subject', type: 'contains', config: { field: 'output', value: 'fox' } }];
const runner = { concurrency: 4, maxAttempts: 3, timeoutMs: 60000 };
const counts = { total: 1, pending: 0, running: 0, completed: 1, failed: 0, cancelled: 0 } satisfies RunCountsView;
const STARTED = '2025-01-15T10:01:00.000Z';
const FINISHED = '2025-01-15T10:01:42.000Z';

const run = {
  id: EXAMPLE.runId,
  benchmarkId: EXAMPLE.benchmarkId,
  status: 'completed',
  experiment: { name: 'dolly-v2', flags: {} },
  runner,
  datasetVersion: 1,
  prompt: { id: EXAMPLE.promptId, version: 2, release: 'staging' },
  counts,
  scores: { 'mentions-subject': { mean: 1, passRate: 1 } },
  costUsd: null,
  createdAt: STARTED,
  startedAt: STARTED,
  finishedAt: FINISHED,
} satisfies RunView;

const benchmark = {
  id: EXAMPLE.benchmarkId,
  projectId: EXAMPLE.projectId,
  name: 'Camera moves, model v3',
  description: '',
  datasetId: EXAMPLE.datasetId,
  scorers,
  target: { type: 'dataset' },
  runner,
  status: 'idle',
  lastRun: null,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies BenchmarkView;

const task = {
  id: EXAMPLE.taskId,
  runId: EXAMPLE.runId,
  itemId: EXAMPLE.datasetItemId,
  itemIndex: 0,
  status: 'completed',
  attempts: 1,
  output: 'a red fox crossing a meadow at dawn',
  scores: [{ scorer: 'mentions-subject', score: 1, passed: true, details: null, error: null }],
  error: null,
  usage: null,
  costUsd: null,
  traceId: 'tr_01jh8z6v9q3m2r7x5c4b1n0k8d',
  startedAt: STARTED,
  finishedAt: FINISHED,
  durationMs: 42000,
} satisfies TaskView;

export const BENCHMARK_EXAMPLES: ExampleTable = {
  createBenchmark: {
    request: {
      name: 'Camera moves, model v3',
      datasetId: EXAMPLE.datasetId,
      scorers: [{ name: 'mentions-subject', type: 'contains', config: { field: 'output', value: 'fox' } }],
      target: { type: 'dataset' },
    } satisfies CreateBenchmarkInput,
    response: benchmark,
  },
  listBenchmarks: { response: listPage([{ ...benchmark, status: 'completed', lastRun: run, updatedAt: FINISHED }]) },
  getBenchmark: { response: benchmark },
  deleteBenchmark: { response: { id: EXAMPLE.benchmarkId, deleted: true } satisfies DeletedView },
  startBenchmarkRun: {
    request: { experiment: { name: 'dolly-v2' }, rowSubset: { limit: 1 } } satisfies StartRunInput,
    response: { id: EXAMPLE.runId, benchmarkId: EXAMPLE.benchmarkId, status: 'queued', taskCount: 1, createdAt: STARTED } satisfies RunStartedView,
  },
  listBenchmarkRuns: { response: listPage([run]) },
  listBenchmarkTasks: {
    response: {
      ...listPage([task]),
      summary: {
        id: EXAMPLE.runId,
        status: 'completed',
        counts,
        annotations: { total: 3, labels: { flicker: 2, 'black frames': 1 }, labelsOmitted: 0, mediaOmitted: 0 },
      } satisfies RunSummaryView,
    },
  },
};
