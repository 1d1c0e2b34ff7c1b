/** An ISO-8601 time with a date, a time and a zone (`Z` or `±hh:mm`). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The times API.md allows: within the years 1970..9999 (UTC). Every later one is refused:
 * a safe integer past the Date range (8.64e15 ms) would be stored, then fail every read.
 */
export const EARLIEST_TIME_MS = 0;
export const LATEST_TIME_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/** What a refused time is told: the one message for every time field and filter. */
export const TIME_INPUT_MESSAGE = 'must be an ISO-8601 time with a zone, or epoch milliseconds, within the years 1970..9999';

/**
 * Epoch milliseconds from an ISO-8601 string or a number of milliseconds, within
 * 1970..9999, with their microseconds as a fraction (`…56.123456Z` reads …123.456; digits
 * past the microsecond are dropped; a number's fraction is rounded to the microsecond);
 * undefined for anything else, a calendar date that does not exist (`2026-02-30`, which
 * Date.parse would roll over to March) included.
 */
export function toEpochMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && inTimeRange(Math.floor(value)) ? toMicroseconds(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const utc = canonicalUtcMs(value);
  if (utc !== undefined) return utc;
  const parts = ISO_TIME.exec(value);
  if (!parts || !isCalendarDate(Number(parts[1]), Number(parts[2]), Number(parts[3]))) return undefined;
  const ms = fromParts(parts) ?? Date.parse(value);
  return Number.isFinite(ms) && inTimeRange(ms) ? withMicros(ms, microsOf(parts[7])) : undefined;
}

/** The microseconds past the millisecond a fraction of a second (`.1234567`) writes: its 4th to 6th digits. */
function microsOf(fraction: string | undefined): number {
  return fraction === undefined || fraction.length <= 4 ? 0 : Number(fraction.slice(4, 7).padEnd(3, '0'));
}

/**
 * Times are epoch milliseconds with the microseconds as a fraction (a double holds them
 * exactly to the microsecond until 2109; later times keep a coarser fraction). These split
 * and join a time as the stores keep it: whole milliseconds, and the microseconds past them (0..999).
 */
export function withMicros(ms: number, micros: number): number {
  return micros === 0 ? ms : ms + micros / 1000;
}

export function splitMicros(time: number): { ms: number; micros: number } {
  const ms = Math.floor(time);
  if (ms === time) return { ms, micros: 0 };
  const micros = Math.round((time - ms) * 1000);
  return micros === 1000 ? { ms: ms + 1, micros: 0 } : { ms, micros };
}

/** A time as ISO 8601 with its microseconds when it has any (`…00.123456Z`), else as toISOString writes it. */
export function isoWithMicros(time: number): string {
  const { ms, micros } = splitMicros(time);
  const iso = new Date(ms).toISOString();
  return micros === 0 ? iso : `${iso.slice(0, -1)}${String(micros).padStart(3, '0')}Z`;
}

/** A number of milliseconds rounded to the microsecond. */
function toMicroseconds(time: number): number {
  const { ms, micros } = splitMicros(time);
  return withMicros(ms, micros);
}

/**
 * The time's epoch milliseconds by arithmetic on its parts, as Date.parse reads them
 * (fraction digits past the milliseconds dropped): a trace's times are parsed once each
 * on ingest, where Date.parse is slow. Only for a time of day and a zone within
 * their usual ranges, and years from 0100 (Date.UTC reads 0..99 as 1900..1999); undefined
 * for the rest (24:00, a leap second, a zone past ±23:59, the year 0075), which Date.parse
 * then judges as before. A spec holds the two to the same answers.
 */
function fromParts(parts: RegExpExecArray): number | undefined {
  const year = Number(parts[1]);
  if (year < 100) return undefined;
  const hour = Number(parts[4]);
  const minute = Number(parts[5]);
  const second = parts[6] === undefined ? 0 : Number(parts[6].slice(1, 3));
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const fraction = parts[7];
  const millis = fraction === undefined ? 0 : Number(fraction.slice(1, 4).padEnd(3, '0'));
  let offsetMinutes = 0;
  const zone = parts[8];
  if (zone !== 'Z') {
    const zoneHours = Number(zone.slice(1, 3));
    const zoneMinutes = Number(zone.slice(-2));
    if (zoneHours > 23 || zoneMinutes > 59) return undefined;
    offsetMinutes = (zone.charCodeAt(0) === 0x2d ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  }
  return Date.UTC(year, Number(parts[2]) - 1, Number(parts[3]), hour, minute, second, millis) - offsetMinutes * 60_000;
}

const CANONICAL_LENGTH = 24;
/** Where `YYYY-MM-DDTHH:MM:SS.mmmZ` has each of its separators. */
const CANONICAL_SEPARATORS: ReadonlyArray<readonly [at: number, char: number]> = [
  [4, 0x2d], // -
  [7, 0x2d],
  [10, 0x54], // T
  [13, 0x3a], // :
  [16, 0x3a],
  [19, 0x2e], // .
  [23, 0x5a], // Z
];

/**
 * A time written as `toISOString` writes it (`YYYY-MM-DDTHH:MM:SS.mmmZ`, what most clients
 * send), read by its digits, a few times faster than the regex and Date.UTC: a trace has
 * several times per span.
 * Undefined for any other form, a part out of its range or a year before 1970, which the
 * regex path then judges: a spec holds both to Date.parse's answers.
 */
function canonicalUtcMs(value: string): number | undefined {
  if (value.length !== CANONICAL_LENGTH) return undefined;
  for (const [at, char] of CANONICAL_SEPARATORS) if (value.charCodeAt(at) !== char) return undefined;
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  const hour = digitsAt(value, 11, 2);
  const minute = digitsAt(value, 14, 2);
  const second = digitsAt(value, 17, 2);
  const millis = digitsAt(value, 20, 3);
  // A digit that is not one reads as NaN, and every comparison with NaN is false.
  if (!(year >= 1970 && hour <= 23 && minute <= 59 && second <= 59 && millis >= 0) || !isCalendarDate(year, month, day)) return undefined;
  return daysSinceEpoch(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + millis;
}

/** Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Hinnant's days_from_civil), by integer arithmetic alone. */
function daysSinceEpoch(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The decimal number of `count` digits at `at`; NaN if any is not a digit. */
function digitsAt(value: string, at: number, count: number): number {
  let number = 0;
  for (let i = at; i < at + count; i++) {
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return NaN;
    number = number * 10 + digit;
  }
  return number;
}

/** Whether epoch milliseconds fall in 1970..9999, the range every stored time must have. */
export function inTimeRange(ms: number): boolean {
  return ms >= EARLIEST_TIME_MS && ms <= LATEST_TIME_MS;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  return day <= DAYS_IN_MONTH[month - 1] + leapDay;
}
