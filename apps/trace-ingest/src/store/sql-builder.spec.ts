import { expect } from '@jest/globals';
import { upsertStatements, type UpsertTable } from './sql-builder';

const table = (columns: number): UpsertTable => ({
  name: 't',
  columns: Array.from({ length: columns }, (_, i) => [`c${i}`, 'text'] as const),
  key: ['c0'],
  update: ['c1'],
});
const rows = (count: number, columns: number) => Array.from({ length: count }, (_, r) => Array.from({ length: columns }, (_, c) => `${r}.${c}`));
/** Rows per SQLite statement, from its parameters. */
const chunkSizes = (count: number, columns: number) => upsertStatements('sqlite', table(columns), rows(count, columns)).map((s) => s.params.length / columns);

describe('upsertStatements on SQLite', () => {
  it('splits rows into power-of-two chunks, so that a table has a dozen statement texts whatever the batch sizes', () => {
    expect(chunkSizes(1000, 23)).toEqual([512, 256, 128, 64, 32, 8]);
    expect(chunkSizes(1, 23)).toEqual([1]);
    expect(chunkSizes(37, 18)).toEqual([32, 4, 1]);
    // 2^k - 1 rows take a chunk of every size below 2^k: these counts meet every size there is.
    const counts = [1, 3, 7, 37, 100, 511, 1000, 1023, 1024, 2047, 3000];
    const distinctTexts = new Set(counts.flatMap((n) => upsertStatements('sqlite', table(23), rows(n, 23)).map((s) => s.sql)));
    expect(distinctTexts.size).toBe(11); // 1, 2, 4, … 1024 rows
  });

  it('binds no more than SQLite allows in one statement, and every row once, in order', () => {
    const statements = upsertStatements('sqlite', table(23), rows(3000, 23));
    expect(Math.max(...statements.map((s) => s.params.length))).toBeLessThanOrEqual(30_000);
    expect(statements.flatMap((s) => s.params)).toEqual(rows(3000, 23).flat());
  });

  it('writes one unnest statement on PostgreSQL, a text column as its texts joined, any other as an array literal', () => {
    const mixed: UpsertTable = {
      name: 't',
      columns: [
        ['c0', 'text'],
        ['c1', 'text'],
        ['c2', 'int8'],
      ],
      key: ['c0'],
      update: ['c1'],
    };
    const [statement, ...more] = upsertStatements('postgres', mixed, [
      ['a', 'say "hi"', 1],
      ['b', null, null],
    ]);
    expect(more).toEqual([]);
    expect(statement.sql).toBe(
      "INSERT INTO t (c0, c1, c2) SELECT * FROM unnest(string_to_array($1, E'\\x01', E'\\x02'), string_to_array($2, E'\\x01', E'\\x02'), $3::int8[]) ON CONFLICT (c0) DO UPDATE SET c1 = excluded.c1",
    );
    expect(statement.params).toEqual(['a\u0001b', 'say "hi"\u0001\u0002', '{1,NULL}']);
  });

  it('sends a text column holding a separator as an array literal', () => {
    const [statement] = upsertStatements('postgres', table(2), [
      ['a', 'x\u0001y'],
      ['b', 'z'],
    ]);
    expect(statement.sql).toContain("unnest(string_to_array($1, E'\\x01', E'\\x02'), $2::text[])");
    expect(statement.params[1]).toBe('{"x\u0001y","z"}');
  });
});
