import { StreamPublisher, type StreamRecord } from '@cinetrace/bus';
import type { TaskEvent, TaskJob } from '@cinetrace/contracts';
import { TaskAttemptError, type AttemptOutcome } from '@cinetrace/benchmark-tasks';
import { aTaskJob, waitFor } from '@cinetrace/testing';
import { InProcessTaskQueue } from './in-process-task-queue';

/** The event stream: what reached it, as `started 1` / `completed after 1`. */
class RecordingStream extends StreamPublisher {
  readonly events: TaskEvent[] = [];
  async publish<T>(_topic: string, records: StreamRecord<T>[]): Promise<void> {
    this.events.push(...records.map((record) => record.value as TaskEvent));
  }
  async isReachable(): Promise<boolean> {
    return true;
  }
  of(taskId: string): string[] {
    return this.events.filter((e) => e.taskId === taskId).map((e) => (e.kind === 'started' ? `started ${e.attempt}` : `${e.status} after ${e.attempts}`));
  }
}

const outcome = (): AttemptOutcome => ({ output: 'ok', usage: null, costUsd: null, scores: [], startedAt: 1, finishedAt: 2, recorded: Promise.resolve() });

/** A processor whose attempts behave as `behave` says, recording each. */
function aProcessor(behave: (job: TaskJob, attempt: number, signal: AbortSignal) => Promise<AttemptOutcome>) {
  const calls: Array<{ taskId: string; attempt: number; signal: AbortSignal }> = [];
  const givenUp: string[] = [];
  return {
    calls,
    givenUp,
    attempt: (job: TaskJob, attempt: number, signal?: AbortSignal) => {
      const s = signal ?? new AbortController().signal;
      calls.push({ taskId: job.taskId, attempt, signal: s });
      return behave(job, attempt, s);
    },
    recordGivenUp: async (job: TaskJob) => void givenUp.push(job.taskId),
  };
}

const hangs = (_job: TaskJob, _attempt: number, signal: AbortSignal) =>
  new Promise<AttemptOutcome>((_, reject) => signal.addEventListener('abort', () => reject(new TaskAttemptError('aborted', true)), { once: true }));

describe('InProcessTaskQueue', () => {
  it('retries a retryable failure after its backoff, counting the attempts an earlier process made', async () => {
    const stream = new RecordingStream();
    const processor = aProcessor(async (job, attempt) => {
      if (attempt < 3) throw new TaskAttemptError('target answered 503', true);
      return outcome();
    });
    const queue = new InProcessTaskQueue(processor, stream, { backoffMs: 5 });
    await queue.enqueue([aTaskJob('t1', { maxAttempts: 3, attemptsBefore: 1 }), aTaskJob('t1')]);
    await waitFor(() => expect(stream.of('t1')).toEqual(['started 2', 'started 3', 'completed after 3']));
    expect(processor.calls.map((c) => c.attempt)).toEqual([2, 3]);
    await queue.close();
  });

  it('fails a task at once on a failure that is not retryable, and on its last attempt', async () => {
    const stream = new RecordingStream();
    const queue = new InProcessTaskQueue(
      aProcessor(async (job) => {
        throw new TaskAttemptError(job.taskId === 'bad' ? 'the target refused the input' : 'target answered 503', job.taskId !== 'bad');
      }),
      stream,
      { backoffMs: 5 },
    );
    await queue.enqueue([aTaskJob('bad'), aTaskJob('flaky', { maxAttempts: 2 })]);
    await waitFor(() => expect(stream.of('bad')).toEqual(['started 1', 'failed after 1']));
    await waitFor(() => expect(stream.of('flaky')).toEqual(['started 1', 'started 2', 'failed after 2']));
    await queue.close();
  });

  it('gives up on a task whose attempts an earlier process used up, without running it', async () => {
    const stream = new RecordingStream();
    const processor = aProcessor(async () => outcome());
    const queue = new InProcessTaskQueue(processor, stream);
    await queue.enqueue([aTaskJob('spent', { maxAttempts: 2, attemptsBefore: 2 })]);
    await waitFor(() => expect(stream.of('spent')).toEqual(['failed after 2']));
    expect(processor.calls).toEqual([]);
    expect(processor.givenUp).toEqual(['spent']);
    await queue.close();
  });

  it("cancels a run's named tasks (or all of them), aborting their attempts and publishing nothing more", async () => {
    const stream = new RecordingStream();
    const processor = aProcessor(hangs);
    const queue = new InProcessTaskQueue(processor, stream);
    await queue.enqueue([aTaskJob('a'), aTaskJob('b'), aTaskJob('c'), aTaskJob('other', { runId: 'run-2' })]);
    await waitFor(() => expect(processor.calls).toHaveLength(4));
    await queue.cancel('run-1', ['a']);
    expect(processor.calls.filter((c) => c.signal.aborted).map((c) => c.taskId)).toEqual(['a']);
    await queue.cancel('run-1', []);
    expect(processor.calls.filter((c) => c.signal.aborted).map((c) => c.taskId)).toEqual(['a', 'b', 'c']);
    // The aborted attempts end; the other run's goes on.
    for (let i = 0; i < 100 && (await queue.jobCounts()).active !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await queue.jobCounts()).toEqual({ waiting: 0, active: 1, delayed: 0 });
    expect(stream.events.filter((e) => e.kind === 'finished')).toEqual([]);
    await queue.close();
  });

  it('on close, aborts what runs and hands back the attempts it stopped; takes nothing after', async () => {
    const stream = new RecordingStream();
    const processor = aProcessor(hangs);
    const queue = new InProcessTaskQueue(processor, stream);
    await queue.enqueue([aTaskJob('a', { attemptsBefore: 1 })]);
    await waitFor(() => expect(processor.calls).toHaveLength(1));
    await queue.close();
    expect(processor.calls[0].signal.aborted).toBe(true);
    expect(queue.attemptsStoppedByClose()).toEqual([{ taskId: 'a', attempt: 2 }]);
    expect(await queue.isReachable()).toBe(false);
    await queue.enqueue([aTaskJob('late')]);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(processor.calls).toHaveLength(1);
  });
});
