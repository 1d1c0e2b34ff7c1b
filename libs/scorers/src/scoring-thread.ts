import { parentPort } from 'node:worker_threads';
import { schemaProblem } from './json-schema';
import { LocalScorerSpec, scoreLocally } from './local-scorers';
import { ScoreInput, ScoreOutcome } from './scorer.types';
import { ScorerError } from './scorer-error';
import { withinTimeLimit } from './time-limit';

/** One evaluation asked of a scoring thread, or (`schema`) a benchmark's JSON Schema to compile at create. */
export type ScoringRequest = { id: number; timeLimitMs: number } & ({ spec: LocalScorerSpec; input: ScoreInput } | { schema: object });

/** Its answer: the outcome, the schema's problem (null: it compiles), or the error's message (`ours`: a ScorerError, written for users). */
export type ScoringReply = { id: number; outcome: ScoreOutcome } | { id: number; problem: string | null } | { id: number; error: string; ours: boolean };

/** Sent once the thread has loaded its modules: only then does an evaluation's time start. */
export const THREAD_READY = 'ready';

// The entry point of each ScoringThreads thread: scores one request at a time. vm's watchdog
// stops a runaway evaluation softly (the thread lives on); the pool's timer is the hard stop.
parentPort?.on('message', (request: ScoringRequest) => {
  let reply: ScoringReply;
  try {
    reply =
      'schema' in request
        ? { id: request.id, problem: withinTimeLimit(() => schemaProblem(request.schema), request.timeLimitMs) }
        : { id: request.id, outcome: withinTimeLimit(() => scoreLocally(request.spec, request.input), request.timeLimitMs) };
  } catch (err) {
    reply = { id: request.id, error: (err as Error)?.message ?? String(err), ours: err instanceof ScorerError };
  }
  parentPort?.postMessage(reply);
});
// Ajv's first compile loads and warms its code generator (hundreds of ms on a busy machine):
// done before the thread says it is ready, so no client's schema is charged for it.
schemaProblem({ type: 'object', properties: { warm: { type: 'string', pattern: '^w' } }, required: ['warm'] });
parentPort?.postMessage(THREAD_READY);
