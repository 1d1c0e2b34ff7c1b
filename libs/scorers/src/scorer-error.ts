/**
 * A failure whose message is meant for the benchmark's owner: it names what went wrong with
 * the scorer or the item, never a secret. runScorer turns it into the score's `error`.
 */
export class ScorerError extends Error {
  override name = 'ScorerError';
}
