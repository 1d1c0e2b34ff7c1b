import { ScoreResult } from './scorer.types';

export interface ScorerSummary {
  /** Mean score over the tasks where the scorer gave one; null when it never did. */
  mean: number | null;
  /** Share of those tasks that passed; null when there were none. */
  passRate: number | null;
  /** Tasks where the scorer failed: left out of mean and passRate, not counted as 0. */
  errors: number;
}

/** A run's per-scorer figures, from each task's score entries, keyed by scorer name in first-seen order. */
export function aggregateScores(results: ScoreResult[][]): Record<string, ScorerSummary> {
  const tally = new Map<string, { sum: number; scored: number; passed: number; errors: number }>();
  for (const task of results) {
    for (const result of task) {
      const t = tally.get(result.scorer) ?? { sum: 0, scored: 0, passed: 0, errors: 0 };
      tally.set(result.scorer, t);
      if (result.error !== null || result.score === null) {
        t.errors += 1;
        continue;
      }
      t.sum += result.score;
      t.scored += 1;
      if (result.passed) t.passed += 1;
    }
  }
  const summary: Record<string, ScorerSummary> = {};
  for (const [scorer, t] of tally) {
    summary[scorer] = {
      mean: t.scored ? t.sum / t.scored : null,
      passRate: t.scored ? t.passed / t.scored : null,
      errors: t.errors,
    };
  }
  return summary;
}
