import { TASK_STATUSES, type TaskJob } from '@cinetrace/contracts';
import { finishedEvent, startedEvent } from './task-events';
import type { AttemptOutcome } from './task-processor';

const job: TaskJob = {
  taskId: 'tsk_01jh8z6v9q3m2r7x5c4b1n0k8d',
  runId: 'run_01jh8z6v9q3m2r7x5c4b1n0k8e',
  benchmarkId: 'bm_01jh8z6v9q3m2r7x5c4b1n0k8f',
  projectId: 'prj_01jh8z6v9q3m2r7x5c4b1n0k8g',
  item: { id: 'dsi_1', index: 0, input: 'hi', expected: 'hi', metadata: {} },
  target: { type: 'dataset' },
  prompt: null,
  scorers: [],
  timeoutMs: 60_000,
  maxAttempts: 3,
  traceId: 'tr_01jh8z6v9q3m2r7x5c4b1n0k8j',
};

describe('startedEvent', () => {
  it('says which task of which run began which attempt, and when', () => {
    expect(startedEvent(job, 2, 1_700_000_000_000)).toEqual({
      kind: 'started',
      taskId: job.taskId,
      runId: job.runId,
      projectId: job.projectId,
      attempt: 2,
      at: 1_700_000_000_000,
    });
  });
});

describe('finishedEvent', () => {
  const outcome: AttemptOutcome = {
    output: { caption: 'hi' },
    usage: { total_tokens: 9 },
    costUsd: 0.002,
    scores: [{ scorer: 'exact_match', score: 1, passed: true, details: null, error: null }],
    startedAt: 1000,
    finishedAt: 1800,
    recorded: Promise.resolve(),
  };

  it('completes the task with the outcome of its last attempt and points at its trace', () => {
    const event = finishedEvent(job, 2, { outcome });
    expect(event).toEqual({
      kind: 'finished',
      taskId: job.taskId,
      runId: job.runId,
      projectId: job.projectId,
      status: 'completed',
      attempts: 2,
      output: outcome.output,
      scores: outcome.scores,
      error: null,
      usage: outcome.usage,
      costUsd: outcome.costUsd,
      traceId: job.traceId,
      startedAt: 1000,
      finishedAt: 1800,
    });
    expect(TASK_STATUSES).toContain(event.status);
  });

  it('fails the task with the error, and no output, scores, usage or cost', () => {
    const event = finishedEvent(job, 3, { error: 'calling the target failed: example.com answered with status 503', startedAt: 1000, finishedAt: 4000 });
    expect(event).toMatchObject({
      status: 'failed',
      attempts: 3,
      output: null,
      scores: [],
      error: 'calling the target failed: example.com answered with status 503',
      usage: null,
      costUsd: null,
      traceId: job.traceId,
      startedAt: 1000,
      finishedAt: 4000,
    });
  });

  it('bounds an overly long error', () => {
    const event = finishedEvent(job, 1, { error: 'e'.repeat(5000), startedAt: 0, finishedAt: 1 });
    expect(event.error?.length).toBeLessThan(400);
  });
});
