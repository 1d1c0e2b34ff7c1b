/** An ISO-8601 time with a date, a time and a zone (`Z` or `±hh:mm`). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The times API.md allows: within the years 1970..9999 (UTC). Every later one is refused:
 * a safe integer past the Date range (8.64e15 ms) would be stored, then fail every read.
 */
export const EARLIEST_TIME_MS = 0;
export const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** What a refused time is told: the one message for every time field and filter. */
export const TIME_INPUT_MESSAGE = 'must be an ISO-8601 time with a zone, or integer epoch milliseconds, within the years 1970..9999';

/**
 * Epoch milliseconds from an ISO-8601 string or an integer of milliseconds, within
 * 1970..9999; undefined for anything else, a calendar date that does not exist
 * (`2026-02-30`, which Date.parse would roll over to March) included.
 */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && inTimeRange(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const parts = ISO_TIME.exec(value);
  if (!parts || !isCalendarDate(Number(parts[1]), Number(parts[2]), Number(parts[3]))) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && inTimeRange(ms) ? ms : undefined;
}

/** Whether epoch milliseconds fall in 1970..9999, the range every stored time must have. */
export function inTimeRange(ms: number): boolean {
  return ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}
