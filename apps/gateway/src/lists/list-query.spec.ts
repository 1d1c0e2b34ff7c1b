import { parseListQuery } from './list-query';

const spec = { name: 'string', includeDeleted: 'boolean', tags: 'string-list', metadata: 'object', from: 'time' } as const;
const paths = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    return (err as { errors: { path: string }[] }).errors.map((e) => e.path);
  }
  throw new Error('expected a validation error');
};

describe('parseListQuery', () => {
  it('defaults the limit to 50 and accepts 1..200', () => {
    expect(parseListQuery({}, spec).limit).toBe(50);
    expect(parseListQuery({ limit: '200' }, spec).limit).toBe(200);
    for (const limit of ['0', '201', 'abc', '1.5', '-1', '']) expect(paths(() => parseListQuery({ limit }, spec))).toEqual(['limit']);
  });

  it('merges args under explicit parameters', () => {
    const q = parseListQuery({ name: 'explicit', args: JSON.stringify({ name: 'from-args', tags: ['a', 'b'] }) }, spec);
    expect(q.filters).toEqual({ name: 'explicit', tags: ['a', 'b'] });
  });

  it('parses typed query parameters', () => {
    const q = parseListQuery({ includeDeleted: 'true', tags: 'a, b', from: '1763784000000' }, spec);
    expect(q.filters).toEqual({ includeDeleted: true, tags: ['a', 'b'], from: '2025-11-22T04:00:00.000Z' });
  });

  it.each([
    ['unknown key', '{"color":"red"}', 'args.color'],
    ['__proto__', '{"__proto__":{"polluted":true}}', 'args.__proto__'],
    ['constructor', '{"constructor":{}}', 'args.constructor'],
    ['array', '[1]', 'args'],
    ['string', '"str"', 'args'],
    ['null', 'null', 'args'],
    ['not json', 'not json', 'args'],
    ['wrong type', '{"name":5}', 'args.name'],
    ['wrong list type', '{"tags":"a"}', 'args.tags'],
  ])('refuses args with %s', (_, args, path) => {
    expect(paths(() => parseListQuery({ args }, spec))).toEqual([path]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('refuses args nested deeper than the JSON limit, naming where, without parsing them', () => {
    const deep = (levels: number) => `{"metadata":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
    expect(parseListQuery({ args: deep(2) }, spec, { maxJsonDepth: 4 }).filters).toEqual({ metadata: { a: [[]] } });
    expect(paths(() => parseListQuery({ args: deep(3) }, spec, { maxJsonDepth: 4 }))).toEqual(['args.metadata.a[0][0]']);
    expect(paths(() => parseListQuery({ args: deep(100_000) }, spec))).toEqual([`args.metadata.a${'[0]'.repeat(62)}`]);
  });

  it('parses a number filter from the query and from args, refusing what is not a finite number', () => {
    const numeric = { scoreMin: 'number' } as const;
    expect(parseListQuery({ scoreMin: '0.25' }, numeric).filters).toEqual({ scoreMin: 0.25 });
    expect(parseListQuery({ scoreMin: '-3' }, numeric).filters).toEqual({ scoreMin: -3 });
    expect(parseListQuery({ args: JSON.stringify({ scoreMin: 1 }) }, numeric).filters).toEqual({ scoreMin: 1 });
    for (const scoreMin of ['', ' ', 'high', 'Infinity', 'NaN', '1e999']) expect(paths(() => parseListQuery({ scoreMin }, numeric))).toEqual(['scoreMin']);
    expect(paths(() => parseListQuery({ args: JSON.stringify({ scoreMin: '1' }) }, numeric))).toEqual(['args.scoreMin']);
  });

  it('refuses U+0000 in a text filter, from the query or args, which no stored text can hold', () => {
    expect(paths(() => parseListQuery({ name: 'a\u0000b' }, spec))).toEqual(['name']);
    expect(paths(() => parseListQuery({ tags: 'a,b\u0000' }, spec))).toEqual(['tags']);
    expect(paths(() => parseListQuery({ args: JSON.stringify({ name: '\u0000', tags: ['x\u0000'] }) }, spec))).toEqual(['args.name', 'args.tags']);
  });

  it('refuses unknown and repeated query parameters', () => {
    expect(paths(() => parseListQuery({ color: 'red' }, spec))).toEqual(['color']);
    expect(paths(() => parseListQuery({ limit: ['1', '2'] }, spec))).toEqual(['limit']);
  });

  it.each([
    ['a safe integer past the Date range', { from: '8700000000000000' }, 'from'],
    ['the same in args', { args: '{"from":8700000000000000}' }, 'args.from'],
    ['a time past 9999', { args: '{"from":"9999-12-31T23:59:59-05:00"}' }, 'args.from'],
    ['a date that does not exist', { from: '2026-02-30T00:00:00Z' }, 'from'],
  ])('refuses a time filter with %s: a 400 naming it, not a RangeError', (_, query, path) => {
    expect(paths(() => parseListQuery(query, spec))).toEqual([path]);
  });
});
