import { expect } from '@jest/globals';
import { LATEST_TIME_MS } from './times';
import { checkSpanParents, foreignParentIds, validateTrace } from './validate-trace';

const span = (over: Record<string, unknown> = {}) => ({ id: 's1', name: 'render', startTime: '2026-11-22T04:00:00.000Z', ...over });

function validTrace(raw: unknown) {
  const result = validateTrace(raw);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.trace;
}

describe('validateTrace', () => {
  it('assigns ids, converts times to epoch ms and keeps only the fields sent', () => {
    const result = validateTrace({ name: 't', startTime: 1_700_000_000_000, spans: [{ name: 'a', startTime: '2026-11-22T04:00:00.000Z' }] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.trace.id).toMatch(/^tr_[0-9a-z]{26}$/);
    expect(result.trace).toEqual({ id: result.trace.id, name: 't', startTime: 1_700_000_000_000, spans: [expect.objectContaining({ name: 'a' })] });
    expect(result.trace.spans[0].id).toMatch(/^sp_/);
    expect(result.trace.spans[0].startTime).toBe(Date.parse('2026-11-22T04:00:00.000Z'));
  });

  it('names every offending field by its path, with a prefix for batch items', () => {
    const result = validateTrace(
      {
        status: 'done',
        colour: 'red',
        spans: [span(), span({ id: 's2', kind: 'video' }), span({ id: 's3', startTime: 'yesterday' }), { id: 's4', startTime: 0 }],
      },
      { path: 'traces[3]' },
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(
      ['traces[3].colour', 'traces[3].spans[1].kind', 'traces[3].spans[2].startTime', 'traces[3].spans[3].name', 'traces[3].status'].sort(),
    );
  });

  it('checks time formats and order once the shape is right', () => {
    const result = validateTrace({ spans: [span({ startTime: 'yesterday' }), span({ id: 's2', startTime: 10, endTime: 5 })] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(['spans[0].startTime', 'spans[1].endTime']);
  });

  it('refuses parents outside the trace, self-parents and cycles, but accepts stored parents', () => {
    const cyclic = validTrace({ spans: [span({ id: 'a', parentId: 'b' }), span({ id: 'b', parentId: 'a' }), span({ id: 'c', parentId: 'c' }), span({ id: 'd', parentId: 'zz' })] });
    expect(foreignParentIds(cyclic)).toEqual(['zz']);
    expect(checkSpanParents(cyclic, new Map(), 'traces[1]').map((e) => e.path)).toEqual([
      'traces[1].spans[2].parentId',
      'traces[1].spans[3].parentId',
      'traces[1].spans[0].parentId',
    ]);
    expect(checkSpanParents(validTrace({ spans: [span({ parentId: 'stored' })] }), new Map([['stored', null]]))).toEqual([]);
  });

  it('allows a parent not (yet) stored when asked to (OTLP), still refusing self-parents and cycles', () => {
    const trace = validTrace({ spans: [span({ id: 'a', parentId: 'b' }), span({ id: 'b', parentId: 'a' }), span({ id: 'c', parentId: 'c' }), span({ id: 'd', parentId: 'zz' })] });
    expect(checkSpanParents(trace, new Map(), '', { allowUnknownParents: true }).map((e) => e.path)).toEqual(['spans[2].parentId', 'spans[0].parentId']);
  });

  it('finds a cycle closed through stored spans', () => {
    // Stored: b's parent is a. The payload makes a a child of b.
    const trace = validTrace({ spans: [span({ id: 'a', parentId: 'b' })] });
    const errors = checkSpanParents(
      trace,
      new Map([
        ['b', 'a'],
        ['a', null],
      ]),
    );
    expect(errors).toEqual([{ path: 'spans[0].parentId', message: 'makes a cycle of parents' }]);
  });

  it('refuses repeated span ids and oversized metadata', () => {
    const result = validateTrace({ metadata: { blob: 'x'.repeat(70_000) }, spans: [span(), span()] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(['metadata', 'spans[1].id']);
  });

  it('refuses what is not a trace object', () => {
    expect(validateTrace([1, 2])).toEqual({ ok: false, errors: [{ path: 'body', message: 'must be a trace object' }] });
  });
});

describe('validateTrace, all at once', () => {
  it('names shape errors and time errors in one answer', () => {
    const result = validateTrace({ status: 'done', colour: 'red', spans: [span({ kind: 'video' }), span({ id: 's2', startTime: 'yesterday' })] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path).sort()).toEqual(['colour', 'spans[0].kind', 'spans[1].startTime', 'status']);
  });
});

describe('validateTrace, times within 1970..9999', () => {
  const pathsOf = (raw: unknown) => {
    const result = validateTrace(raw);
    return result.ok ? [] : result.errors.map((e) => e.path);
  };

  it('refuses a safe integer past the Date range, and any time past 9999, in every time field', () => {
    const far = 8_700_000_000_000_000;
    expect(pathsOf({ startTime: far })).toEqual(['startTime']);
    expect(pathsOf({ endTime: far })).toEqual(['endTime']);
    expect(pathsOf({ spans: [span(), span({ id: 's2' }), span({ id: 's3', startTime: far })] })).toEqual(['spans[2].startTime']);
    expect(pathsOf({ spans: [span({ endTime: LATEST_TIME_MS + 1 })] })).toEqual(['spans[0].endTime']);
    expect(pathsOf({ spans: [span({ events: [{ name: 'e', time: far }] })] })).toEqual(['spans[0].events[0].time']);
    // Written in a zone west of UTC, the last second of 9999 is already in 10000.
    expect(pathsOf({ startTime: '9999-12-31T23:59:59-05:00' })).toEqual(['startTime']);
  });

  it('takes the first and the last millisecond of the range', () => {
    expect(validTrace({ startTime: 0, endTime: LATEST_TIME_MS })).toMatchObject({ startTime: 0, endTime: LATEST_TIME_MS });
    expect(validTrace({ startTime: '9999-12-31T23:59:59.999Z' }).startTime).toBe(LATEST_TIME_MS);
  });

  it('refuses a calendar date that does not exist rather than rolling it over', () => {
    expect(pathsOf({ startTime: '2026-02-30T00:00:00Z' })).toEqual(['startTime']);
    expect(pathsOf({ startTime: '2026-13-01T00:00:00Z' })).toEqual(['startTime']);
    expect(validTrace({ startTime: '2028-02-29T00:00:00Z' }).startTime).toBe(Date.UTC(2028, 1, 29));
  });
});

describe('validateTrace, values JSON would not give back', () => {
  const errorsOf = (json: string) => {
    const result = validateTrace(JSON.parse(json));
    return result.ok ? [] : result.errors;
  };

  it('refuses numbers that are not finite (1e400 parses as Infinity), naming each', () => {
    const errors = errorsOf('{"metadata":{"n":-1e400},"spans":[{"name":"a","startTime":0,"costUsd":1e400,"usage":{"inputTokens":1e400}}]}');
    expect(errors.map((e) => e.path).sort()).toEqual(['metadata.n', 'spans[0].costUsd', 'spans[0].usage.inputTokens']);
    expect(errors[0].message).toBe('must be a finite number');
  });

  it('refuses lone surrogates and U+0000 in values and keys, and takes a surrogate pair', () => {
    const errors = errorsOf('{"name":"\\ud800","input":{"k":["ok","\\udc00x"]},"metadata":{"\\ud83d":1,"nul":"a\\u0000b"},"spans":[{"name":"🎬 \\ud83c\\udfac","startTime":0}]}');
    expect(errors.map((e) => e.path).sort()).toEqual(['input.k[1]', 'metadata.nul', 'metadata.\ufffd', 'name']);
    expect(validTrace(JSON.parse('{"name":"\\ud83c\\udfac"}')).name).toBe('🎬');
  });
});
