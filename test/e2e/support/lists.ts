import { Api, Query } from '@cinetrace/testing';
import { ListPage } from './api-types';

/** Follows nextCursor from the first page to the last, failing on any non-200 page. */
export async function pageThrough<T>(api: Api, path: string, query: Query = {}, betweenPages?: () => Promise<unknown>): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await api.get<ListPage<T>>(path, { ...query, cursor });
    expect(page.status).toBe(200);
    items.push(...page.body.data);
    pages += 1;
    if (pages > 1000) throw new Error('more than 1000 pages: nextCursor never ends');
    cursor = page.body.nextCursor ?? undefined;
    if (cursor && betweenPages) await betweenPages();
  } while (cursor);
  return { items, pages };
}

/** The ids of the items, in order. */
export const ids = (items: Array<{ id: string }>): string[] => items.map((item) => item.id);
