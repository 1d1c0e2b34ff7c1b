import { useCallback, useEffect, useRef, useState } from 'react';
import type { Page } from '../api-types';

export interface PagedList<T> {
  page: Page<T> | null;
  error: unknown;
  /** 1 for the first page. */
  number: number;
  hasPrevious: boolean;
  hasNext: boolean;
  previous(): void;
  next(): void;
  reload(): void;
}

type FetchPage<T> = (cursor: string | null) => Promise<Page<T>>;

/** What the last answer was, and which list it answered: a page of another list is never shown. */
interface Answered<T> {
  list: FetchPage<T>;
  page: Page<T> | null;
  error: unknown;
}

/**
 * Keyset paging over a list route: remembers the cursors of the pages before this one,
 * and starts again at the first page whenever `fetchPage` changes (new filters, another
 * run). Until the new list answers, there is no page: rows of the old one under the new
 * one's heading would send a click to the wrong item.
 */
export function usePagedList<T>(fetchPage: FetchPage<T>): PagedList<T> {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [answered, setAnswered] = useState<Answered<T> | null>(null);
  const [reloads, setReloads] = useState(0);
  const request = useRef(0);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => setCursors([null]), [fetchPage]);

  useEffect(() => {
    const id = ++request.current;
    fetchPage(cursor).then(
      (next) => id === request.current && setAnswered({ list: fetchPage, page: next, error: null }),
      (e: unknown) => id === request.current && setAnswered({ list: fetchPage, page: null, error: e }),
    );
  }, [fetchPage, cursor, reloads]);

  const current = answered?.list === fetchPage ? answered : null;
  const page = current?.page ?? null;

  return {
    page,
    error: current?.error ?? null,
    number: cursors.length,
    hasPrevious: cursors.length > 1,
    hasNext: !!page?.nextCursor,
    previous: useCallback(() => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)), []),
    next: useCallback(() => page?.nextCursor && setCursors((list) => [...list, page.nextCursor]), [page]),
    reload: useCallback(() => setReloads((n) => n + 1), []),
  };
}
