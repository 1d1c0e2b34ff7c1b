import type { Run, ScoreSummary, Task } from './api-types';

// Two runs of a benchmark side by side: per dataset item, each scorer's score in the base
// run and in the other one, and the change. Regressions come first, worst first, because
// they are what a reader compares runs for.

export type Change = 'regression' | 'improvement' | 'unchanged' | 'missing';

export interface ScorerDelta {
  scorer: string;
  base: number | null;
  other: number | null;
  /** other − base; null when either side has no score. */
  delta: number | null;
}

export interface ComparedItem {
  itemIndex: number;
  itemId: string;
  base: Task | null;
  other: Task | null;
  scores: ScorerDelta[];
  change: Change;
  /** The most negative delta (or the largest, for an improvement): how the rows sort. */
  worst: number;
}

export interface Comparison {
  scorers: string[];
  items: ComparedItem[];
  counts: Record<Change, number>;
}

const RANK: Record<Change, number> = { regression: 0, missing: 1, improvement: 2, unchanged: 3 };
/** Score changes smaller than this are float noise, not a change. */
const EPSILON = 1e-9;

export function compareRuns(baseTasks: Task[], otherTasks: Task[]): Comparison {
  const byItem = new Map<string, { base: Task | null; other: Task | null }>();
  for (const task of baseTasks) byItem.set(task.itemId, { base: task, other: null });
  for (const task of otherTasks) byItem.set(task.itemId, { base: byItem.get(task.itemId)?.base ?? null, other: task });

  const scorers = [...new Set([...baseTasks, ...otherTasks].flatMap((t) => t.scores.map((s) => s.scorer)))];
  const items = [...byItem.entries()].map(([itemId, { base, other }]) => compareItem(itemId, base, other, scorers));
  items.sort((a, b) => RANK[a.change] - RANK[b.change] || (a.change === 'improvement' ? b.worst - a.worst : a.worst - b.worst) || a.itemIndex - b.itemIndex);

  const counts: Record<Change, number> = { regression: 0, improvement: 0, unchanged: 0, missing: 0 };
  for (const item of items) counts[item.change] += 1;
  return { scorers, items, counts };
}

function compareItem(itemId: string, base: Task | null, other: Task | null, scorers: string[]): ComparedItem {
  const scoreOf = (task: Task | null, scorer: string) => task?.scores.find((s) => s.scorer === scorer)?.score ?? null;
  const scores = scorers.map((scorer) => {
    const b = scoreOf(base, scorer);
    const o = scoreOf(other, scorer);
    return { scorer, base: b, other: o, delta: b === null || o === null ? null : o - b };
  });
  const deltas = scores.map((s) => s.delta).filter((d): d is number => d !== null);
  const lowest = deltas.length ? Math.min(...deltas) : 0;
  const highest = deltas.length ? Math.max(...deltas) : 0;
  // A score lost (scored before, not now) counts as a regression too.
  const lost = scores.some((s) => s.base !== null && s.other === null);
  let change: Change;
  if (!base || !other) change = 'missing';
  else if (lowest < -EPSILON || lost) change = 'regression';
  else if (highest > EPSILON) change = 'improvement';
  else change = 'unchanged';
  return {
    itemIndex: (base ?? other)!.itemIndex,
    itemId,
    base,
    other,
    scores,
    change,
    worst: change === 'improvement' ? highest : lost && lowest >= 0 ? -Infinity : lowest,
  };
}

/** "+0.25", "−1", "0": a delta as the comparison shows it (a true minus sign). */
export function formatDelta(delta: number | null): string {
  if (delta === null) return '—';
  if (Math.abs(delta) < EPSILON) return '0';
  const text = Math.abs(delta)
    .toFixed(3)
    .replace(/\.?0+$/, '');
  return delta > 0 ? `+${text}` : `−${text}`;
}

const NO_SCORES: ScoreSummary = { mean: null, passRate: null };

/** A run's summary for one scorer: all nulls for a scorer the run does not have. */
export function scoreSummary(scores: Run['scores'], scorer: string): ScoreSummary {
  return scores[scorer] ?? NO_SCORES;
}

/** A run's scorer summaries, by scorer name. */
export function scoreSummaries(scores: Run['scores']): Array<[string, ScoreSummary]> {
  return Object.entries(scores);
}
