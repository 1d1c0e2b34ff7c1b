/**
 * A page request as a service sees it. `after` is the keyset position the gateway
 * decoded from a verified cursor: a service never parses client cursors itself.
 */
export interface PageRequest<TKey = unknown> {
  limit: number;
  after?: TKey;
}

/** A page as a service returns it; the gateway turns `nextKey` into an opaque cursor. */
export interface Page<TItem, TKey = unknown> {
  items: TItem[];
  nextKey: TKey | null;
}

/**
 * A page whose items the service already wrote as the text of one JSON array: the gateway
 * puts that text into the envelope as it is, without parsing and serializing it again.
 */
export interface TextPage<TKey = unknown> {
  itemsJson: string;
  nextKey: TKey | null;
}

/** The public list envelope (API.md, "Lists"). */
export interface ListEnvelope<TItem> {
  data: TItem[];
  nextCursor: string | null;
}

export const PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const;

/**
 * How many rows a keyset query asks for: one more than the page, so that the extra row,
 * when it comes, says there is a next page (`toPage`).
 */
export function rowsForPage(page: Pick<PageRequest, 'limit'>): number {
  return page.limit + 1;
}

/**
 * A page of the rows a keyset query returned when asked for `rowsForPage(page)`: the first
 * `limit` of them, and the key of the last of those when a further row shows there is more.
 * Views are the caller's: `const { items, nextKey } = toPage(rows, page.limit, (r) => r.id)`.
 */
export function toPage<TRow, TKey>(rows: TRow[], limit: number, keyOf: (row: TRow) => TKey): Page<TRow, TKey> {
  const items = rows.slice(0, limit);
  return { items, nextKey: rows.length > limit ? keyOf(items[items.length - 1]) : null };
}
