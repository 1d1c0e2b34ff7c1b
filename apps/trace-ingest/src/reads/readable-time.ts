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

/**
 * endTime - startTime, of the times as written back, to the microsecond (three decimals at
 * most: the difference of two doubles carries dust past them); null while there is no end.
 */
export function durationMs(startTime: number, endTime: number | null): number | null {
  if (endTime === null) return null;
  const difference = readableTime(endTime) - readableTime(startTime);
  return Number.isInteger(difference) ? difference : Math.round(difference * 1000) / 1000;
}

const DAY_MS = 86_400_000;
const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
/** Each day's `YYYY-MM-DDT`, as computed: a list item's start and creation are often on different days. */
const dayPrefixes = new Map<number, string>();
/** Enough days for any page or trace; past it the cache starts again. */
const MAX_CACHED_DAYS = 4096;

/**
 * A stored time as the ISO 8601 text answers carry (`toISOString` of readableTime): to the
 * millisecond, as every time of the API is written; microseconds are truncated (a
 * start never reads later than it was), and durationMs keeps them. The
 * date part is computed once per day and the time of day by arithmetic: a trace's GET writes
 * several times per span, and `new Date(ms).toISOString()` for each is a large share of its CPU.
 * Days are kept by number, not only the last one: a list item's start and creation times on
 * different days would make every other call miss.
 */
export function isoTime(ms: number): string {
  const time = Math.floor(readableTime(ms));
  const day = Math.floor(time / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= MAX_CACHED_DAYS) dayPrefixes.clear();
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11); // YYYY-MM-DDT (years 1970..9999: always four digits)
    dayPrefixes.set(day, prefix);
  }
  let rest = time - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  return `${prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds]}.${THREE_DIGITS[rest - seconds * 1000]}Z`;
}
