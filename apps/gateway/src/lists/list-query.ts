import { DomainError, FieldError, PAGE_LIMIT } from '@cinetrace/contracts';
import { isoWithMicros, TIME_INPUT_MESSAGE, toEpochMs } from '@cinetrace/traces';
import { DEFAULT_MAX_JSON_DEPTH, excessiveNestingError } from '@cinetrace/validation';

/** The type of one list filter, as it may arrive in the query string and in `args`. */
export type FilterType = 'string' | 'number' | 'boolean' | 'string-list' | 'object' | 'time';
export type FilterSpec = Record<string, FilterType>;

/** What each filter type parses to (`time`: ISO-8601, normalised). */
interface FilterValues {
  string: string;
  number: number;
  boolean: boolean;
  'string-list': string[];
  object: Record<string, unknown>;
  time: string;
}

/** The filters a list route's spec lets through, each typed as it is parsed. */
export type FiltersOf<S extends FilterSpec> = { [K in keyof S]?: FilterValues[S[K]] };

export interface ListQuery {
  limit: number;
  cursor?: string;
  filters: Record<string, unknown>;
}

const PAGING_PARAMS = new Set(['limit', 'cursor', 'args']);

/** No stored text holds U+0000 (PostgreSQL's text cannot), so a filter with it is the client's mistake, not a query for the store to fail on. */
const NUL_MESSAGE = 'must not contain U+0000';

/**
 * Parses a list route's query: `limit`, `cursor`, the route's own filters, and `args`
 * (a JSON object of those same filters, merged under the explicit parameters). Anything
 * not on the route's allow-list is refused, `__proto__` included, so only known names
 * with checked types ever reach a query, and then only as bound parameters.
 */
export function parseListQuery(query: Record<string, unknown>, spec: FilterSpec, { maxJsonDepth = DEFAULT_MAX_JSON_DEPTH }: { maxJsonDepth?: number } = {}): ListQuery {
  const errors: FieldError[] = [];
  const explicit: Record<string, unknown> = {};
  for (const name of Object.keys(query)) {
    if (PAGING_PARAMS.has(name)) continue;
    if (!Object.hasOwn(spec, name)) {
      errors.push({ path: name, message: 'is not a parameter of this list' });
      continue;
    }
    const value = fromQueryString(query[name], spec[name], name, errors);
    if (value !== undefined) explicit[name] = value;
  }
  const fromArgs = parseArgs(query.args, spec, maxJsonDepth, errors);
  const limit = parseLimit(query.limit, errors);
  const cursor = single(query.cursor, 'cursor', errors);
  if (cursor !== undefined && cursor === '') errors.push({ path: 'cursor', message: 'must not be empty' });
  if (errors.length) throw DomainError.validation(errors);
  return { limit, cursor: cursor || undefined, filters: { ...fromArgs, ...explicit } };
}

function parseLimit(raw: unknown, errors: FieldError[]): number {
  const value = single(raw, 'limit', errors);
  if (value === undefined) return PAGE_LIMIT.default;
  const limit = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(limit) || limit < PAGE_LIMIT.min || limit > PAGE_LIMIT.max) {
    errors.push({ path: 'limit', message: `must be an integer from ${PAGE_LIMIT.min} to ${PAGE_LIMIT.max}` });
  }
  return limit;
}

function parseArgs(raw: unknown, spec: FilterSpec, maxJsonDepth: number, errors: FieldError[]): Record<string, unknown> {
  const text = single(raw, 'args', errors);
  if (text === undefined) return {};
  const tooDeep = excessiveNestingError(text, maxJsonDepth, 'args');
  if (tooDeep) {
    errors.push(tooDeep);
    return {};
  }
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    errors.push({ path: 'args', message: 'must be a JSON object' });
    return {};
  }
  if (decoded === null || typeof decoded !== 'object' || Array.isArray(decoded)) {
    errors.push({ path: 'args', message: 'must be a JSON object' });
    return {};
  }
  const filters: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(decoded)) {
    const path = `args.${name}`;
    if (!Object.hasOwn(spec, name)) {
      errors.push({ path, message: `is not a filter of this list (allowed: ${Object.keys(spec).join(', ') || 'none'})` });
      continue;
    }
    const checked = fromJson(value, spec[name], path, errors);
    if (checked !== undefined) filters[name] = checked;
  }
  return filters;
}

function fromQueryString(raw: unknown, type: FilterType, name: string, errors: FieldError[]): unknown {
  const value = single(raw, name, errors);
  if (value === undefined) return undefined;
  if (type !== 'time' && type !== 'number' && value.includes('\u0000')) {
    errors.push({ path: name, message: NUL_MESSAGE });
    return undefined;
  }
  switch (type) {
    case 'string':
      return value;
    case 'number':
      return parseNumber(value.trim() === '' ? NaN : Number(value), name, errors);
    case 'boolean':
      if (value === 'true' || value === 'false') return value === 'true';
      errors.push({ path: name, message: 'must be true or false' });
      return undefined;
    case 'string-list':
      return value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    case 'time':
      return parseTime(/^\d+$/.test(value) ? Number(value) : value, name, errors);
    case 'object':
      errors.push({ path: name, message: 'can only be given in args' });
      return undefined;
  }
}

function fromJson(value: unknown, type: FilterType, path: string, errors: FieldError[]): unknown {
  switch (type) {
    case 'string':
      if (typeof value === 'string' && value.includes('\u0000')) errors.push({ path, message: NUL_MESSAGE });
      else if (typeof value === 'string') return value;
      else errors.push({ path, message: 'must be a string' });
      return undefined;
    case 'number':
      return parseNumber(value, path, errors);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      errors.push({ path, message: 'must be a boolean' });
      return undefined;
    case 'string-list':
      if (Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes('\u0000'))) errors.push({ path, message: NUL_MESSAGE });
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
      else errors.push({ path, message: 'must be an array of strings' });
      return undefined;
    case 'object':
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
      errors.push({ path, message: 'must be an object' });
      return undefined;
    case 'time':
      return parseTime(value, path, errors);
  }
}

/**
 * Times as inputs are everywhere (ISO-8601 with a zone, or epoch milliseconds, within
 * 1970..9999); normalised to ISO, microseconds kept (trace start times have them). Out of
 * range is the client's mistake (400), never a RangeError from toISOString (500).
 */
function parseTime(value: unknown, path: string, errors: FieldError[]): string | undefined {
  const ms = toEpochMs(value);
  if (ms !== undefined) return isoWithMicros(ms);
  errors.push({ path, message: TIME_INPUT_MESSAGE });
  return undefined;
}

/** A finite number (a score's bound): `NaN`, `Infinity` and text are refused. */
function parseNumber(value: unknown, path: string, errors: FieldError[]): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  errors.push({ path, message: 'must be a finite number' });
  return undefined;
}

/** Repeated query parameters (`?limit=1&limit=2`) are refused rather than guessed at. */
function single(raw: unknown, path: string, errors: FieldError[]): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string') return raw;
  errors.push({ path, message: 'must be given once' });
  return undefined;
}
