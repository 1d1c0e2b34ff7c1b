import { expect } from '@jest/globals';
import { openTestStore, type TestStore } from '@cinetrace/testing';
import { traceIngestStore } from '../trace-ingest.module';
import { pgArrayLiteral } from './pg-array-literal';

/** Text an element must carry through unchanged: every character the literal's syntax gives a meaning, and the ones JSON escapes differently. */
const AWKWARD_TEXTS = [
  '',
  'NULL',
  'null',
  ' leading and trailing ',
  'say "hi", {brace} \\back\\slash\\ \'single\'',
  '{"input.value":"a \\"quoted\\" prompt","n":[1,2]}',
  'line\nbreak\ttab\r\u0001\u001f',
  'emoji 🎬 and 视频, U+2028 \u2028',
];
/** Not valid Unicode: PostgreSQL receives it replaced (UTF-8 has no lone surrogate), as from pg. */
const LONE_SURROGATE = 'lone \ud800 surrogate';

describe('pgArrayLiteral', () => {
  let store: TestStore;
  beforeAll(async () => {
    store = await openTestStore('postgres', traceIngestStore);
  }, 60_000);
  afterAll(() => store?.close());

  /** What PostgreSQL reads from the parameter: a literal, or a JS array that pg writes as one itself. */
  const readBack = async (parameter: string | unknown[], type: string): Promise<unknown[]> => {
    const [row] = await store.dataSource.query<Array<{ a: unknown[] }>>(`SELECT $1::${type}[] AS a`, [parameter]);
    return row.a;
  };

  it('carries every text, NULL apart from the text NULL, through PostgreSQL unchanged', async () => {
    const values = [...AWKWARD_TEXTS, null];
    expect(await readBack(pgArrayLiteral(values), 'text')).toEqual(values);
  });

  it('replaces a lone surrogate as PostgreSQL would have received it from pg', async () => {
    const values = [LONE_SURROGATE];
    expect(await readBack(pgArrayLiteral(values), 'text')).toEqual(await readBack(values, 'text'));
  });

  it('writes numbers as numbers for the integer and float columns', async () => {
    expect(await readBack(pgArrayLiteral([1_700_000_000_123, null, -5, 0]), 'int8')).toEqual(['1700000000123', null, '-5', '0']);
    expect(await readBack(pgArrayLiteral([0.1 + 0.2, 1e-7, 1.5e21, null]), 'float8')).toEqual([0.1 + 0.2, 1e-7, 1.5e21, null]);
    expect(await readBack(pgArrayLiteral([3, null]), 'int2')).toEqual([3, null]);
  });

  it('reads as the array pg would have written, empty and undefined included', async () => {
    const values = [...AWKWARD_TEXTS, LONE_SURROGATE, null, undefined];
    expect(await readBack(pgArrayLiteral(values), 'text')).toEqual(await readBack(values, 'text'));
    expect(await readBack(pgArrayLiteral([]), 'text')).toEqual([]);
  });
});
