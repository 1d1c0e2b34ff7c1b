import { rowsForPage, toPage } from './page';

describe('keyset pages', () => {
  const rows = [{ id: 'c' }, { id: 'b' }, { id: 'a' }];

  it('asks for one row more than the page', () => {
    expect(rowsForPage({ limit: 2 })).toBe(3);
  });

  it('keeps the first limit rows and keys the next page on the last of them when a further row came', () => {
    expect(toPage(rows, 2, (row) => row.id)).toEqual({ items: [{ id: 'c' }, { id: 'b' }], nextKey: 'b' });
  });

  it('has no next page when no further row came', () => {
    expect(toPage(rows, 3, (row) => row.id)).toEqual({ items: rows, nextKey: null });
    expect(toPage(rows.slice(0, 1), 3, (row) => row.id)).toEqual({ items: [{ id: 'c' }], nextKey: null });
    expect(toPage([], 3, (row: { id: string }) => row.id)).toEqual({ items: [], nextKey: null });
  });

  it('takes composite keys', () => {
    const traces = [
      { startTime: 3, id: 'x' },
      { startTime: 2, id: 'y' },
    ];
    expect(toPage(traces, 1, (t): [number, string] => [t.startTime, t.id]).nextKey).toEqual([3, 'x']);
  });
});
