import { expect } from '@jest/globals';
import { validateScorers } from './validate-scorers';

function errorsOf(raw: unknown, path?: string) {
  const result = validateScorers(raw, path);
  if (result.ok) throw new Error('expected validation errors');
  return result.errors;
}
const pathsOf = (raw: unknown) => errorsOf(raw).map((e) => e.path);
/** Unique names, so that only the errors a test is about are reported. */
const named = (scorers: object[]) => scorers.map((s, i) => ({ name: `s${i}`, ...s }));

describe('validateScorers', () => {
  it('normalises: the name defaults to the type and config to {}', () => {
    const result = validateScorers([
      { type: 'exact_match' },
      { name: 'caption-like', type: 'string_similarity', config: { field: 'caption', threshold: 0.8 } },
      { type: 'range', config: { field: 'video.durationSeconds', min: 5, max: 10 } },
    ]);
    expect(result).toEqual({
      ok: true,
      scorers: [
        { name: 'exact_match', type: 'exact_match', config: {} },
        { name: 'caption-like', type: 'string_similarity', config: { field: 'caption', threshold: 0.8 } },
        { name: 'range', type: 'range', config: { field: 'video.durationSeconds', min: 5, max: 10 } },
      ],
    });
  });

  it('accepts a valid config of every type', () => {
    const result = validateScorers([
      { type: 'exact_match', config: { field: 'a', caseSensitive: false, threshold: 1 } },
      { type: 'contains', config: { value: 'cat', caseSensitive: false } },
      { type: 'regex', config: { pattern: '^\\d+s$', flags: 'iu' } },
      { type: 'json_schema', config: { schema: { type: 'object', required: ['caption'] } } },
      { type: 'numeric_tolerance', config: { field: 'fps', tolerance: 0.5 } },
      { type: 'range', config: { field: 'durationSeconds', max: 10 } },
      { type: 'string_similarity' },
      { type: 'llm_judge', config: { baseUrl: 'https://api.example.com/v1', model: 'gpt-x', rubric: 'Is it vivid?', apiKey: { secret: 'JUDGE_KEY' } } },
      { type: 'http', config: { url: 'http://scorer.example.com/score', headers: { 'X-Team': 'abc', Authorization: { secret: 'scorer.token' } } } },
    ]);
    expect(result.ok).toBe(true);
  });

  it('refuses what is not an array of 1..20 scorers', () => {
    const message = 'must be an array of 1..20 scorers';
    expect(errorsOf({ type: 'regex' })).toEqual([{ path: 'scorers', message }]);
    expect(errorsOf([])).toEqual([{ path: 'scorers', message }]);
    expect(errorsOf(Array.from({ length: 21 }, (_, i) => ({ name: `s${i}`, type: 'exact_match' })))).toEqual([{ path: 'scorers', message }]);
    expect(errorsOf(null, 'benchmark.scorers')).toEqual([{ path: 'benchmark.scorers', message }]);
  });

  it('names every offending field by its path, all at once', () => {
    expect(
      pathsOf([
        'exact_match',
        { type: 'telepathy' },
        { type: 'regex', config: { pattern: '(' } },
        { name: 'regex-2', type: 'regex', config: { pattern: 'a', flags: 'x' } },
        { type: 'contains', colour: 'red', config: { value: 1, extra: true } },
        { name: '', type: 'exact_match' },
        { name: 'x'.repeat(101), type: 'exact_match' },
        { config: {} },
      ]),
    ).toEqual([
      'scorers[0]',
      'scorers[1].type',
      'scorers[2].config.pattern',
      'scorers[3].config.flags',
      'scorers[4].colour',
      'scorers[4].config.value',
      'scorers[4].config.extra',
      'scorers[5].name',
      'scorers[6].name',
      'scorers[7].type',
    ]);
  });

  it('refuses duplicate names, the default name included', () => {
    expect(errorsOf([{ type: 'exact_match' }, { name: 'b', type: 'regex', config: { pattern: 'x' } }, { name: 'b', type: 'contains' }, { type: 'exact_match' }])).toEqual([
      { path: 'scorers[2].name', message: expect.stringContaining("repeats the name of scorers[1] ('b')") },
      { path: 'scorers[3].name', message: expect.stringContaining('scorers[0]') },
    ]);
  });

  it('checks required and typed options per type', () => {
    expect(
      pathsOf(
        named([
          { type: 'regex' },
          { type: 'json_schema', config: { schema: 'object' } },
          { type: 'json_schema', config: { schema: [] } },
          { type: 'numeric_tolerance', config: { tolerance: -1 } },
          { type: 'numeric_tolerance' },
          { type: 'range', config: { min: 1 } },
          { type: 'range', config: { field: 'd' } },
          { type: 'range', config: { field: 'd', min: 5, max: 1 } },
          { type: 'llm_judge', config: { apiKey: 'sk-plain' } },
          { type: 'http', config: { url: 'ftp://example.com', headers: { 'X-A': 1, 'bad header': 'v' } } },
          { type: 'http', config: { headers: ['x'] } },
        ]),
      ),
    ).toEqual([
      'scorers[0].config.pattern',
      'scorers[1].config.schema',
      'scorers[2].config.schema',
      'scorers[3].config.tolerance',
      'scorers[4].config.tolerance',
      'scorers[5].config.field',
      'scorers[6].config',
      'scorers[7].config.max',
      'scorers[8].config.baseUrl',
      'scorers[8].config.model',
      'scorers[8].config.rubric',
      'scorers[8].config.apiKey',
      'scorers[9].config.url',
      'scorers[9].config.headers.X-A',
      'scorers[9].config.headers.bad header',
      'scorers[10].config.url',
      'scorers[10].config.headers',
    ]);
  });

  it('refuses a judge key named by environment variable, whatever the name', () => {
    const judge = { baseUrl: 'https://api.example.com/v1', model: 'gpt-x', rubric: 'Is it vivid?' };
    for (const name of ['BOOTSTRAP_API_KEY', 'DATABASE_URL', 'PATH']) {
      expect(errorsOf([{ type: 'llm_judge', config: { ...judge, apiKeyEnv: name } }])).toEqual([
        { path: 'scorers[0].config.apiKeyEnv', message: expect.stringMatching(/server environment variable.*secret/) },
      ]);
    }
  });

  it('refuses credential headers on http scorers as plain strings, and takes them from a secret', () => {
    const http = (headers: Record<string, unknown>) => [{ type: 'http', config: { url: 'https://scorer.example.com', headers } }];
    for (const name of ['Authorization', 'Proxy-Authorization', 'Cookie', 'X-Api-Key', 'Api-Key', 'X-Auth-Token']) {
      expect(pathsOf(http({ [name]: 'Bearer sk-1' }))).toEqual([`scorers[0].config.headers.${name}`]);
      expect(validateScorers(http({ [name]: { secret: 'SCORER_KEY' } })).ok).toBe(true);
    }
    expect(pathsOf(http({ 'x-team': { secret: 'no spaces allowed' } }))).toEqual(['scorers[0].config.headers.x-team']);
  });

  it('checks the options every scorer accepts: field and threshold', () => {
    expect(
      pathsOf([
        { name: 'a', type: 'exact_match', config: { field: 'video..fps' } },
        { name: 'b', type: 'exact_match', config: { field: '' } },
        { name: 'c', type: 'string_similarity', config: { threshold: 1.2 } },
        { name: 'd', type: 'contains', config: { threshold: '0.5' } },
        { name: 'e', type: 'http', config: { url: 'https://x.example', field: 'frames.0.url', threshold: 0 } },
      ]),
    ).toEqual(['scorers[0].config.field', 'scorers[1].config.field', 'scorers[2].config.threshold', 'scorers[3].config.threshold']);
  });

  it('explains a regex that does not compile with its flags', () => {
    expect(errorsOf([{ type: 'regex', config: { pattern: '\\p{L', flags: 'u' } }])).toEqual([
      { path: 'scorers[0].config.pattern', message: expect.stringMatching(/^is not a valid regular expression: /) },
    ]);
    expect(pathsOf([{ type: 'regex', config: { pattern: 'a', flags: 'gg' } }])).toEqual(['scorers[0].config.flags']);
    expect(pathsOf([{ type: 'regex', config: { pattern: '(', flags: 'q' } }])).toEqual(['scorers[0].config.flags', 'scorers[0].config.pattern']);
  });

  it('refuses patterns the linear-time engine cannot run, and says why', () => {
    for (const pattern of ['(a)\\1', '(?<x>a)\\k<x>', 'a(?=b)', 'a(?!b)', '(?<=a)b', '(?<!a)b']) {
      expect(errorsOf([{ type: 'regex', config: { pattern } }])).toEqual([
        {
          path: 'scorers[0].config.pattern',
          message: expect.stringMatching(/^is not supported: scorers match regular expressions in linear time \(RE2 syntax\), which has no backreferences/),
        },
      ]);
    }
    expect(pathsOf([{ type: 'regex', config: { pattern: 'a'.repeat(2001) } }])).toEqual(['scorers[0].config.pattern']);
    expect(validateScorers([{ type: 'regex', config: { pattern: '^(a+)+$|(?<year>\\d{4})|\\u00e9|[\\s\\S]|\\\\k' } }]).ok).toBe(true);
  });

  it("bounds a JSON Schema in size and depth (compiling it is scorerSchemaErrors' work, on a thread)", () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'object', properties: { a: deep } };
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`field${i}`, { type: 'string' }])) };
    expect(errorsOf([{ type: 'json_schema', config: { schema: deep } }])).toEqual([{ path: 'scorers[0].config.schema', message: 'must nest at most 32 levels deep' }]);
    expect(errorsOf([{ type: 'json_schema', config: { schema: big } }])).toEqual([
      { path: 'scorers[0].config.schema', message: expect.stringMatching(/^must be at most 8192 bytes of JSON \(it has \d+\)$/) },
    ]);
    expect(validateScorers([{ type: 'json_schema', config: { schema: { type: 'string', pattern: '(a)\\1' } } }]).ok).toBe(true);
  });

  it('refuses a config that is not an object, and does not guess options for an unknown type', () => {
    expect(
      pathsOf([
        { type: 'regex', config: 'x' },
        { type: 'nope', config: { anything: 1 } },
      ]),
    ).toEqual(['scorers[0].config', 'scorers[1].type']);
  });

  it('gives a config the caller may keep without sharing the request', () => {
    const headers = { 'X-Token': 'abc' };
    const result = validateScorers([{ type: 'http', config: { url: 'https://x.example', headers } }]);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    headers['X-Token'] = 'changed';
    expect(result.scorers[0].config).toEqual({ url: 'https://x.example', headers: { 'X-Token': 'abc' } });
  });
});
