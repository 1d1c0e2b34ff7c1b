import { EARLIEST_TIME_MS, LATEST_TIME_MS } from '@cinetrace/traces';

/**
 * A stored time as it can be written back. Ingest refuses times outside 1970..9999, but
 * rows stored before that check may hold one (8.7e15 ms made `toISOString` throw, and
 * the whole list with it): such a time reads as the nearest end of the range, so one
 * bad row never takes a list or a GET down. The row itself is left as it was; sending
 * the trace or span again with a valid time repairs it.
 */
export function readableTime(ms: number): number {
  if (Number.isNaN(ms)) return EARLIEST_TIME_MS;
  return Math.min(Math.max(ms, EARLIEST_TIME_MS), LATEST_TIME_MS);
}

/** endTime - startTime, of the times as written back; null while there is no end. */
export function durationMs(startTime: number, endTime: number | null): number | null {
  return endTime === null ? null : readableTime(endTime) - readableTime(startTime);
}
