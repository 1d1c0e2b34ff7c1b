import type { StreamPublisher } from '@cinetrace/bus';
import { Topics, type TaskJob, type TaskScore, type TraceIngestMessage } from '@cinetrace/contracts';
import type { OutboundClient } from '@cinetrace/outbound';
import { renderPrompt, type LocalScoring } from '@cinetrace/scorers';
import { AttemptLimit } from './attempt-limit';
import { AttemptSecrets } from './attempt-secrets';
import type { SecretSource } from './secret-source';
import { AttemptTrace } from './attempt-trace';
import { scoreOutput } from './scoring';
import type { TaskMedia } from './task-media';
import { withoutSecrets } from './trace-payloads';
import { TaskAttemptError, userFacing } from './task-attempt-error';
import { targetCallFailure } from './target-failures';
import { checkedAnswer } from './target-answers';
import { prepareTarget, type TargetAnswer } from './targets';

/**
 * How long a failed attempt waits for its trace to be accepted. The attempt has already
 * failed (possibly at its deadline): the trace is worth a short wait, not a hung worker.
 */
export const FAILED_TRACE_WAIT_MS = 5000;

export interface TaskProcessorDeps {
  /** Guards private addresses, follows no redirects, caps size and time; throws OutboundError. */
  outbound: OutboundClient;
  /** The trace stream (`Topics.TraceIngest`). */
  traces: StreamPublisher;
  /** Where `{ secret }` references get their values, at call time, so a rotated secret counts at the next task. */
  secrets: SecretSource;
  /** Where the scorers whose cost a user controls run: ScoringThreads, off the event loop. */
  scoring: LocalScoring;
  /** Where the video scorers read media; without it they give an error. */
  media?: TaskMedia;
  now?: () => number;
}

export interface AttemptOutcome {
  output: unknown;
  usage: Record<string, number> | null;
  costUsd: number | null;
  scores: TaskScore[];
  startedAt: number;
  finishedAt: number;
  /**
   * Settles once the attempt's trace is durable; rejects with a retryable TaskAttemptError
   * when it cannot be recorded. The caller publishes the task's `finished` event alongside
   * (both then travel in one produce request) and counts the task done only when both are.
   */
  recorded: Promise<void>;
}

interface AttemptWork {
  answer: TargetAnswer;
  scores: TaskScore[];
}

/**
 * Runs one attempt of a benchmark task: the target call, the scorers, the trace. Shared by
 * the BullMQ worker and the in-process runner; retries and backoff are the caller's.
 */
export class TaskProcessor {
  private readonly now: () => number;

  constructor(private readonly deps: TaskProcessorDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * One attempt (`attempt` counts from 1). Rejects with a TaskAttemptError when the target
   * fails, the attempt runs past `job.timeoutMs` (target and scorers) or `signal` aborts;
   * a failing scorer only gives its score an error. Resolves as soon as the scores are in,
   * with the trace on its way (`recorded`).
   */
  async attempt(job: TaskJob, attempt: number, signal?: AbortSignal): Promise<AttemptOutcome> {
    const startedAt = this.now();
    const limit = new AttemptLimit(job.timeoutMs, signal, this.now);
    const trace = new AttemptTrace(job, attempt, startedAt, this.now);
    const secrets = new AttemptSecrets(job, this.deps.secrets);
    try {
      let work: AttemptWork;
      try {
        work = await limit.race(this.work(job, limit, trace, secrets));
      } catch (error) {
        const failure = safeFailure(error, secrets);
        trace.seal();
        await this.publishFailedTrace(job, trace.message({ error: failure.message }, this.now(), secrets.keys));
        throw failure;
      }
      const finishedAt = this.now();
      trace.seal();
      // The scores travel with the trace: trace-ingest stores them beside it (source `benchmark`).
      const recorded = this.publishTrace(job, trace.message({ output: work.answer.output, scores: work.scores }, finishedAt, secrets.keys));
      // Handled here too, so a caller that gives up on the task (a cancel) leaves no unhandled rejection.
      recorded.catch(() => undefined);
      return { ...work.answer, scores: work.scores, startedAt, finishedAt, recorded };
    } finally {
      limit.dispose();
    }
  }

  private async work(job: TaskJob, limit: AttemptLimit, trace: AttemptTrace, secrets: AttemptSecrets): Promise<AttemptWork> {
    limit.throwIfStopped();
    const prompt = job.prompt ? renderPrompt(job.prompt.content, job.item.input) : null;
    const target = prepareTarget(job, prompt);
    trace.targetStarted(target);
    let answer: TargetAnswer;
    try {
      // An answer that echoes a secret (an endpoint repeating its headers) is stored, traced and scored without it.
      answer = withoutSecrets(checkedAnswer(await target.call({ outbound: this.deps.outbound, secrets, limit })), secrets.keys);
    } catch (error) {
      const failure = safeFailure(targetCallFailure(error), secrets);
      trace.targetFailed(failure.message);
      throw failure;
    }
    trace.targetFinished(answer);
    // An answer that arrives after the deadline or a cancel must not start the scorers.
    limit.throwIfStopped();
    const scores = await scoreOutput(job, answer.output, {
      outbound: this.deps.outbound,
      secrets,
      local: this.deps.scoring,
      media: this.deps.media?.forTask(job, limit),
      limit,
      onScorerStarted: (index) => trace.scorerStarted(index),
      onScorerFinished: (index, score) => trace.scorerFinished(index, score),
    });
    return { answer, scores: withoutSecrets(scores, secrets.keys) };
  }

  /**
   * Records, best effort, attempt `attempt` of a task that is given up without running it
   * (its attempts died with their processes, which recorded nothing): the task's `traceId`
   * must answer, with `error` saying why the task failed.
   */
  async recordGivenUp(job: TaskJob, attempt: number, error: string): Promise<void> {
    const now = this.now();
    const trace = new AttemptTrace(job, attempt, now, this.now);
    trace.seal();
    await this.publishFailedTrace(job, trace.message({ error }, now, []));
  }

  /** A trace that cannot be recorded fails the attempt: the task would be a result nobody can inspect. */
  private async publishTrace(job: TaskJob, message: TraceIngestMessage): Promise<void> {
    try {
      await this.deps.traces.publish<TraceIngestMessage>(Topics.TraceIngest, [{ key: `${job.projectId}/${job.traceId}`, value: message }]);
    } catch {
      // The stream's error speaks of brokers and partitions, nothing the benchmark's owner can act on.
      throw new TaskAttemptError('could not record the trace of the attempt', true);
    }
  }

  /** Best effort: the attempt's own error is what the caller must hear, not a second one about its trace. */
  private async publishFailedTrace(job: TaskJob, message: TraceIngestMessage): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FAILED_TRACE_WAIT_MS)));
    try {
      await Promise.race([this.publishTrace(job, message).catch(() => undefined), waited]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Any failure as a TaskAttemptError whose message is fit to show: secrets cut out, length bounded. */
function safeFailure(error: unknown, secrets: AttemptSecrets): TaskAttemptError {
  if (error instanceof TaskAttemptError) return new TaskAttemptError(userFacing(error.message, secrets.inMessages), error.retryable);
  // Not one of ours: a bug or an odd value. Its message is the best clue, and another attempt would meet it again.
  return new TaskAttemptError(userFacing(`failed: ${(error as Error)?.message ?? String(error)}`, secrets.inMessages), false);
}
