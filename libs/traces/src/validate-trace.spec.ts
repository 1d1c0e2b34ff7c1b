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

  it('finds a cycle closed through stored spans', () => {
    // Stored: b's parent is a. The payload makes a a child of b.
    const trace = validTrace({ spans: [span({ id: 'a', parentId: 'b' })] });
    const errors = checkSpanParents(trace, new Map([['b', 'a'], ['a', null]]));
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
