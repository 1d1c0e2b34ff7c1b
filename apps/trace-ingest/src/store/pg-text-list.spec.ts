import { expect } from '@jest/globals';
import { openTestStore, type TestStore } from '@cinetrace/testing';
import { traceIngestStore } from '../trace-ingest.module';
import { pgTextList, pgTextListSql } from './pg-text-list';

describe('pgTextList', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore('postgres', traceIngestStore);
  }, 60_000);
  afterAll(() => store?.close());

  const readBack = async (list: string | Buffer): Promise<unknown[]> => {
    const [row] = await store.dataSource.query<Array<{ a: unknown[] }>>(`SELECT ${pgTextListSql('$1')} AS a`, [list]);
    return row.a;
  };

  it('carries JSON texts, empty texts and NULLs through PostgreSQL as the array they were', async () => {
    const values = [
      '{"input.value":"a \\"quoted\\" prompt","n":[1,2],"tab":"\\t"}',
      '',
      null,
      'NULL',
      " {braces}, commas, \\backslashes\\ and 'quotes' ",
      'emoji 🎬 and 视频, U+2028 \u2028, line\nbreak',
      undefined,
      '',
    ];
    expect(await readBack(pgTextList(values)!)).toEqual(values.map((v) => v ?? null));
    expect(await readBack(pgTextList([null])!)).toEqual([null]);
    expect(await readBack(pgTextList(['', ''])!)).toEqual(['', '']);
  });

  it('carries long texts as UTF-8 bytes, multi-byte characters and NULLs included', async () => {
    const prompt = (i: number) => JSON.stringify({ prompt: `a "quoted" prompt ${i} `.repeat(8), n: i });
    const values = [prompt(1), null, '视频 🎬 生成 '.repeat(40), prompt(2), '', '\u2028 line\nbreak '.repeat(10), undefined, prompt(3)];
    const list = pgTextList(values)!;
    expect(Buffer.isBuffer(list)).toBe(true);
    expect(await readBack(list)).toEqual(values.map((v) => v ?? null));
    const manyWide = Array.from({ length: 50 }, (_, i) => `${i} ` + '🎬视'.repeat(30));
    expect(await readBack(pgTextList(manyWide)!)).toEqual(manyWide);
  });

  it('declines what it cannot carry: a text holding either mark, or one empty text', () => {
    expect(pgTextList(['ok', 'a\u0001b'])).toBeNull();
    expect(pgTextList(['\u0002'])).toBeNull();
    expect(pgTextList([''])).toBeNull();
  });
});
