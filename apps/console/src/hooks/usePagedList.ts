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

/**
 * Keyset paging over a list route: remembers the cursors of the pages before this one,
 * and starts again at the first page whenever `fetchPage` changes (new filters).
 */
export function usePagedList<T>(fetchPage: (cursor: string | null) => Promise<Page<T>>): PagedList<T> {
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [page, setPage] = useState<Page<T> | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [reloads, setReloads] = useState(0);
  const request = useRef(0);
  const cursor = cursors[cursors.length - 1];

  useEffect(() => setCursors([null]), [fetchPage]);

  useEffect(() => {
    const id = ++request.current;
    fetchPage(cursor).then(
      (next) => {
        if (id !== request.current) return;
        setPage(next);
        setError(null);
      },
      (e: unknown) => {
        if (id !== request.current) return;
        setPage(null);
        setError(e);
      },
    );
  }, [fetchPage, cursor, reloads]);

  return {
    page,
    error,
    number: cursors.length,
    hasPrevious: cursors.length > 1,
    hasNext: !!page?.nextCursor,
    previous: useCallback(() => setCursors((list) => (list.length > 1 ? list.slice(0, -1) : list)), []),
    next: useCallback(() => page?.nextCursor && setCursors((list) => [...list, page.nextCursor]), [page]),
    reload: useCallback(() => setReloads((n) => n + 1), []),
  };
}
