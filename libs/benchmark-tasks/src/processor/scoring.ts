import type { TaskJob, TaskScore } from '@cinetrace/contracts';
import { OutboundError, type OutboundClient } from '@cinetrace/outbound';
import { runScorer, ScorerError, type LocalScoring, type MediaAccess, type ScorerDeps, type ScorerSpec } from '@cinetrace/scorers';
import type { AttemptLimit } from './attempt-limit';
import type { AttemptSecrets } from './attempt-secrets';

export interface ScoringContext {
  outbound: OutboundClient;
  secrets: Pick<AttemptSecrets, 'value'>;
  local: LocalScoring;
  /** The task's media, for the video scorers. */
  media?: MediaAccess;
  limit: AttemptLimit;
  /** Told when each scorer starts and ends, for the trace. */
  onScorerStarted(index: number): void;
  onScorerFinished(index: number, score: TaskScore): void;
}

/**
 * Runs every scorer of the job on the output, at the same time. runScorer never throws: a
 * scorer that fails gives its own entry an error and leaves the task (and the others) alone.
 */
export function scoreOutput(job: TaskJob, output: unknown, ctx: ScoringContext): Promise<TaskScore[]> {
  const { input, expected, metadata } = job.item;
  const deps = scorerDeps(ctx);
  return Promise.all(
    job.scorers.map(async (spec, index) => {
      ctx.onScorerStarted(index);
      // Specs were checked when the benchmark was created; runScorer copes with any leftover oddity.
      const score = await runScorer(spec as ScorerSpec, { input, expected, output, metadata }, deps);
      ctx.onScorerFinished(index, score);
      return score;
    }),
  );
}

function scorerDeps(ctx: ScoringContext): ScorerDeps {
  return {
    // Its refusal is written for users ("the secret 'X' could not be used: …"): the score's error says just that.
    secretValue: (name, url) =>
      ctx.secrets.value(name, url).catch((error: unknown) => {
        throw new ScorerError((error as Error)?.message ?? String(error));
      }),
    local: ctx.local,
    media: ctx.media,
    timeoutMs: ctx.limit.remainingMs(),
    postJson: async (url, body, options) => {
      ctx.limit.throwIfStopped();
      const remainingMs = ctx.limit.remainingMs();
      try {
        return await ctx.outbound.postJson(url, body, {
          headers: options.headers,
          timeoutMs: Math.min(options.timeoutMs, remainingMs),
          signal: ctx.limit.signal,
          targetType: 'scorer',
        });
      } catch (error) {
        // Cut short by the attempt's deadline: the attempt times out, rather than finish with this score's error.
        if (remainingMs <= options.timeoutMs && error instanceof OutboundError && error.reason === 'timeout') ctx.limit.expire();
        // The scorers judge the status themselves ("the judge answered HTTP 500"); the body of a refusal is not kept.
        if (error instanceof OutboundError && error.reason === 'http_status' && error.status !== undefined) return { status: error.status, body: null };
        throw error;
      }
    },
  };
}
