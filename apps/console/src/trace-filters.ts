import type { TraceQuery } from './api-types';

/** The trace list's filters, as the form holds them (strings; empty means "any"). */
export interface TraceFilters {
  status: string;
  name: string;
  tags: string;
  userId: string;
  sessionId: string;
  /** datetime-local values (the browser's local time) or ISO strings. */
  from: string;
  to: string;
  /** `key=value` pairs, one per line or comma-separated: exact match on each key. */
  metadata: string;
}

export const NO_FILTERS: TraceFilters = { status: '', name: '', tags: '', userId: '', sessionId: '', from: '', to: '', metadata: '' };

const SIMPLE = ['status', 'name', 'userId', 'sessionId'] as const;

/**
 * The API's query for these filters: simple ones as parameters, tags as a list (the client
 * sends it as a comma list), times as ISO-8601 UTC, and metadata in `args` (the only way
 * the API takes an object).
 */
export function filtersToQuery(filters: TraceFilters): TraceQuery {
  const query: TraceQuery = {};
  for (const key of SIMPLE) {
    const value = filters[key].trim();
    if (value) query[key] = value;
  }
  const tags = splitList(filters.tags);
  if (tags.length) query.tags = tags;
  for (const key of ['from', 'to'] as const) {
    const iso = toIso(filters[key]);
    if (iso) query[key] = iso;
  }
  const metadata = parseMetadata(filters.metadata);
  if (Object.keys(metadata).length) query.args = JSON.stringify({ metadata });
  return query;
}

/** The filters as the console's own URL keeps them (so a filtered list can be shared or reloaded). */
export function filtersToSearch(filters: TraceFilters): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(filters) as Array<[string, string]>) if (value.trim()) search.set(key, value.trim());
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function filtersFromSearch(search: string): TraceFilters {
  const params = new URLSearchParams(search);
  const filters: TraceFilters = { ...NO_FILTERS };
  for (const key of Object.keys(NO_FILTERS) as Array<keyof TraceFilters>) filters[key] = params.get(key) ?? '';
  return filters;
}

function splitList(text: string): string[] {
  return text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** An ISO-8601 UTC time for a datetime-local or ISO value; '' when empty or not a time. */
export function toIso(value: string): string {
  const text = value.trim();
  if (!text) return '';
  const time = new Date(text);
  return Number.isNaN(time.getTime()) ? '' : time.toISOString();
}

/**
 * `key=value` pairs (newline or comma separated). Values that read as JSON numbers,
 * booleans or null are matched as such (metadata values are JSON), others as strings.
 */
export function parseMetadata(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of text.split(/[\n,]/)) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    if (key) out[key] = jsonScalar(raw);
  }
  return out;
}

function jsonScalar(raw: string): unknown {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  return raw;
}
