import { Run } from './run.entity';
import { Task } from './task.entity';

// Rows for unit tests that need a run and its tasks in a real store.

/** An active run of `concurrency` with 20 pending tasks. */
export function aRun(id: string, concurrency: number): Run {
  return Object.assign(new Run(), {
    id,
    projectId: 'prj_1',
    benchmarkId: 'bm_1',
    activeBenchmarkId: 'bm_1',
    status: 'running',
    experiment: {},
    runner: { concurrency, maxAttempts: 1, timeoutMs: 5000 },
    plan: { target: { type: 'dataset' }, scorers: [], prompt: null },
    promptId: null,
    promptVersion: null,
    datasetId: 'ds_1',
    datasetVersion: 1,
    total: 20,
    pending: 20,
    running: 0,
    completed: 0,
    failed: 0,
    cancelled: 0,
    handedOverThrough: -1,
    scoreTotals: {},
    costUsd: null,
    createdAt: Date.now(),
    startedAt: Date.now(),
    finishedAt: null,
  });
}

/** A pending task of the run, not handed over yet. */
export function aTask(runId: string, index: number): Task {
  return Object.assign(new Task(), {
    id: `task_${index}`,
    runId,
    projectId: 'prj_1',
    itemId: `item_${index}`,
    itemIndex: index,
    status: 'pending',
    attempts: 0,
    input: { prompt: String(index) },
    expected: null,
    metadata: {},
    output: null,
    scores: [],
    error: null,
    usage: undefined,
    costUsd: null,
    traceId: `trace_${index}`,
    startedAt: null,
    finishedAt: null,
    durationMs: null,
  });
}
