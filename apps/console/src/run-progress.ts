import type { RunCounts, RunStatus } from './api-types';

// A run's progress bar from its task counts: one segment per task status, in the order
// a task moves through them, and whether the page should keep polling.

export type Segment = { status: keyof Omit<RunCounts, 'total'>; count: number; percent: number };

export interface RunProgress {
  /** Tasks that have ended (completed, failed or cancelled). */
  done: number;
  total: number;
  /** 0..100, of ended tasks; 100 for a run with no task. */
  percent: number;
  /** Non-empty segments only, widths adding up to 100 (or 0 when there is no task). */
  segments: Segment[];
}

const ORDER: Segment['status'][] = ['completed', 'failed', 'cancelled', 'running', 'pending'];

export function runProgress(counts: RunCounts): RunProgress {
  // The total the API gives, or the sum when a count outgrew it (never a bar over 100 %).
  const sum = ORDER.reduce((n, status) => n + Math.max(0, counts[status] || 0), 0);
  const total = Math.max(counts.total || 0, sum);
  const done = Math.max(0, counts.completed || 0) + Math.max(0, counts.failed || 0) + Math.max(0, counts.cancelled || 0);
  const segments = ORDER.map((status) => ({ status, count: Math.max(0, counts[status] || 0) }))
    .filter((s) => s.count > 0)
    .map((s) => ({ ...s, percent: total ? (s.count / total) * 100 : 0 }));
  return { done, total, percent: total ? (done / total) * 100 : 100, segments };
}

/** A run still moving: queued or running. Its page polls until it has ended. */
export function isActive(status: RunStatus | 'idle'): boolean {
  return status === 'queued' || status === 'running';
}

/**
 * Whether a read of a run calls for the page to read again after it (its tasks at once, the
 * benchmark and its runs at the next poll): while the run moves, and once more after the read
 * that finds it ended. What was read alongside that read (the tasks, the benchmark's status) may
 * have been answered before the run ended, without the last scores; what is read after it
 * cannot be (a run ends in the same write as its last tasks' results and its benchmark's status).
 */
export function readAgain(before: RunStatus | undefined, after: RunStatus): boolean {
  return isActive(after) || (before !== undefined && isActive(before));
}

/** "12 completed · 3 failed · 5 pending": the counts in words, zeroes left out. */
export function countsInWords(counts: RunCounts): string {
  const parts = ORDER.filter((status) => counts[status] > 0).map((status) => `${counts[status]} ${status}`);
  return parts.length ? parts.join(' · ') : 'no task';
}
