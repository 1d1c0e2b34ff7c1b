import type { Page, PageRequest } from '@cinetrace/contracts';

/**
 * Every page of a service's list, following `nextKey` from the first page to the last, as
 * the gateway's cursors do. Stops (and fails the test) past `maxPages`, so a list whose
 * key never advances cannot loop forever.
 */
export async function allPages<T, K>(list: (page: PageRequest<K>) => Promise<Page<T, K>>, limit: number, maxPages = 100): Promise<T[][]> {
  const pages: T[][] = [];
  let after: K | undefined;
  for (;;) {
    if (pages.length >= maxPages) throw new Error(`the list had more than ${maxPages} pages of ${limit}: its key does not advance`);
    const page = await list(after === undefined ? { limit } : { limit, after });
    pages.push(page.items);
    if (page.nextKey === null) return pages;
    after = page.nextKey;
  }
}
