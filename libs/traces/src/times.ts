/** An ISO-8601 time with a date, a time and a zone (`Z` or `±hh:mm`). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Epoch milliseconds from an ISO-8601 string or a non-negative integer of milliseconds; undefined if neither. */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string' || !ISO_TIME.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
