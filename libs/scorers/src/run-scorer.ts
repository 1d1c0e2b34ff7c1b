import { LocalScorerSpec, scoreLocally } from './local-scorers';
import { askHttpScorer, judgeWithLlm } from './remote-scorers';
import { LocalScoring, ScoreInput, ScoreOutcome, ScoreResult, ScorerDeps, ScorerSpec, isScorerType, scorerThreshold } from './scorer.types';
import { ScorerError } from './scorer-error';
import { withinTimeLimit } from './time-limit';
import { scoreVideo } from './video-scorers';

const MAX_ERROR_LENGTH = 300;

/**
 * Scores one item's output with one scorer. Never throws: a scorer that fails gives its own
 * entry an `error` (score and passed null) and leaves the task's other scores alone.
 */
export async function runScorer(spec: ScorerSpec, input: ScoreInput, deps: ScorerDeps): Promise<ScoreResult> {
  const scorer = typeof spec?.name === 'string' ? spec.name : String(spec?.type);
  const secrets = plainHeaderValues(spec);
  // Every value released for this scorer is cut out of its error, whatever the error quotes.
  const tracked: ScorerDeps = {
    ...deps,
    secretValue: async (name, url) => {
      const value = await deps.secretValue(name, url);
      secrets.push(value);
      return value;
    },
  };
  try {
    const outcome = await score(spec, input, tracked);
    const passed = outcome.passed ?? outcome.score >= scorerThreshold(spec);
    return { scorer, score: outcome.score, passed, details: outcome.details ?? null, error: null };
  } catch (err) {
    return {
      scorer,
      score: null,
      passed: null,
      details: null,
      error: safeMessage(
        err,
        secrets.filter((s) => s.length > 0),
      ),
    };
  }
}

async function score(spec: ScorerSpec, input: ScoreInput, deps: ScorerDeps): Promise<ScoreOutcome> {
  const type: unknown = spec?.type; // a stored spec from an older version may hold anything
  if (!isScorerType(type)) throw new ScorerError(`unknown scorer type '${String(type)}'`);
  if (spec.type === 'llm_judge') return judgeWithLlm(spec, input, deps);
  if (spec.type === 'http') return askHttpScorer(spec, input, deps);
  // ffmpeg in child processes, bounded by the attempt's remaining time.
  if (spec.type === 'video_conformance' || spec.type === 'video_qa' || spec.type === 'video_similarity') return scoreVideo(spec, input, deps);
  // What a user's pattern, schema or texts can make costly runs where it cannot hold the event loop.
  if (USER_COSTED_SCORERS.has(spec.type)) return deps.local.score(spec, input);
  return scoreLocally(spec, input);
}

/** Local scorers whose cost the benchmark's owner controls: the rest are linear in the output, bounded by the 10 MiB answer cap. */
const USER_COSTED_SCORERS = new Set<string>(['regex', 'json_schema', 'string_similarity']);

/** LocalScoring on this thread, bounded by vm's watchdog: for tests and tools, never a service's event loop. */
export const inThisThread: LocalScoring = {
  score: async (spec, input) => withinTimeLimit(() => scoreLocally(spec as LocalScorerSpec, input)),
};

/** The http scorer's plain header values: not credentials (those come from secrets), but no error needs to repeat them. */
function plainHeaderValues(spec: ScorerSpec): string[] {
  if (spec?.type !== 'http') return [];
  return Object.values(spec.config?.headers ?? {}).filter((v): v is string => typeof v === 'string');
}

/**
 * Our own errors are written for users; anything else (a bug, an odd value) is shown by its
 * message too, as it is the best clue, but with every secret cut out and the length bounded.
 */
function safeMessage(err: unknown, secrets: string[]): string {
  const raw = err instanceof ScorerError ? err.message : `failed: ${(err as Error)?.message ?? String(err)}`;
  // Longest first, so that a secret containing another is cut out whole.
  const redacted = [...secrets].sort((a, b) => b.length - a.length).reduce((text, secret) => text.split(secret).join('[redacted]'), raw);
  return redacted.length > MAX_ERROR_LENGTH ? `${redacted.slice(0, MAX_ERROR_LENGTH)}…` : redacted;
}
