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

/** The public list envelope (API.md, "Lists"). */
export interface ListEnvelope<TItem> {
  data: TItem[];
  nextCursor: string | null;
}

export const PAGE_LIMIT = { min: 1, max: 200, default: 50 } as const;
