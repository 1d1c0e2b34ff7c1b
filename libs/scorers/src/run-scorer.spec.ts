import { expect } from '@jest/globals';
import { inThisThread, runScorer } from './run-scorer';
import { ScorerError } from './scorer-error';
import { ScoreInput, ScoreResult, ScorerDeps, ScorerSpec } from './scorer.types';
import { validateScorers } from './validate-scorers';

/** A spec as validateScorers gives it, so the tests use only what a client can create. */
function spec(raw: { name?: string; type: string; config?: Record<string, unknown> }): ScorerSpec {
  const result = validateScorers([raw]);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.scorers[0];
}

const item = (over: Partial<ScoreInput> = {}): ScoreInput => ({ input: { prompt: 'a cat' }, expected: null, output: null, metadata: {}, ...over });

/** `body` is the JSON a scorer posted: an assertion that reads into it says what it expects there. */
type Call = { url: string; body: unknown; options: { headers?: Record<string, string>; timeoutMs: number } };
/** What an OpenAI-style chat endpoint is sent. */
type ChatBody = { messages: { role: string; content: string }[] };

/**
 * A ScorerDeps whose postJson records each call and answers from `answer` (or throws it), and
 * whose secrets are those of `secrets` (asks recorded; a missing one is refused as project-service would).
 */
function fakeDeps(answer: { status: number; body: unknown } | Error, secrets: Record<string, string | undefined> = {}) {
  const calls: Call[] = [];
  const asked: Array<{ name: string; url: string }> = [];
  const deps: ScorerDeps = {
    secretValue: async (name, url) => {
      asked.push({ name, url });
      const value = secrets[name];
      if (value === undefined) throw new ScorerError(`the secret '${name}' could not be used: no secret named '${name}'`);
      return value;
    },
    local: inThisThread,
    timeoutMs: 5000,
    postJson: async (url, body, options) => {
      calls.push({ url, body, options });
      if (answer instanceof Error) throw answer;
      return answer;
    },
  };
  return { deps, calls, asked };
}
const noNetwork = fakeDeps(new Error('no network in this test')).deps;

async function scored(raw: Parameters<typeof spec>[0], over: Partial<ScoreInput>, deps = noNetwork): Promise<ScoreResult> {
  return runScorer(spec(raw), item(over), deps);
}
const judgeAnswer = (content: unknown) => ({ status: 200, body: { choices: [{ message: { role: 'assistant', content } }] } });

describe('runScorer: exact_match', () => {
  it('passes an equal output, case-sensitively by default', async () => {
    expect(await scored({ type: 'exact_match' }, { output: 'Cat', expected: 'Cat' })).toEqual({ scorer: 'exact_match', score: 1, passed: true, details: null, error: null });
    expect(await scored({ type: 'exact_match' }, { output: 'cat', expected: 'Cat' })).toMatchObject({ score: 0, passed: false, error: null });
    expect(await scored({ type: 'exact_match', config: { caseSensitive: false } }, { output: 'cat', expected: 'CAT' })).toMatchObject({ score: 1, passed: true });
  });

  it('compares objects whatever their key order, and a number with its text', async () => {
    expect(await scored({ type: 'exact_match' }, { output: { a: 1, b: [1, { c: 2, d: 3 }] }, expected: { b: [1, { d: 3, c: 2 }], a: 1 } })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'exact_match' }, { output: '42', expected: 42 })).toMatchObject({ score: 1 });
  });

  it('looks up the field in the output, and in expected when expected has it', async () => {
    const output = { caption: 'A cat', video: { durationSeconds: 6 } };
    expect(await scored({ type: 'exact_match', config: { field: 'caption' } }, { output, expected: { caption: 'A cat' } })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'exact_match', config: { field: 'caption' } }, { output, expected: 'A cat' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'exact_match', config: { field: 'video.durationSeconds' } }, { output, expected: { video: { durationSeconds: 5 } } })).toMatchObject({
      score: 0,
    });
  });

  it('gives an error, not a score, for a missing field or a missing expected', async () => {
    expect(await scored({ type: 'exact_match', config: { field: 'caption' } }, { output: { title: 'x' }, expected: 'x' })).toEqual({
      scorer: 'exact_match',
      score: null,
      passed: null,
      details: null,
      error: "the output has no field 'caption'",
    });
    expect(await scored({ type: 'exact_match' }, { output: 'x', expected: undefined })).toMatchObject({ error: 'the item has no expected value to compare with' });
  });

  it('does not reach into the prototype chain through a field path', async () => {
    expect(await scored({ type: 'exact_match', config: { field: 'constructor' } }, { output: {}, expected: 'x' })).toMatchObject({
      error: "the output has no field 'constructor'",
    });
  });
});

describe('runScorer: contains, regex, string_similarity', () => {
  it('contains looks for config.value, else the expected text', async () => {
    expect(await scored({ type: 'contains', config: { value: 'cat' } }, { output: 'a black cat' })).toMatchObject({ score: 1, passed: true });
    expect(await scored({ type: 'contains', config: { value: 'Cat' } }, { output: 'a black cat' })).toMatchObject({ score: 0, passed: false });
    expect(await scored({ type: 'contains', config: { value: 'Cat', caseSensitive: false } }, { output: 'a black cat' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'contains' }, { output: 'a black cat', expected: 'black' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'contains' }, { output: { tags: ['cat'] }, expected: '"cat"' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'contains' }, { output: 'a cat' })).toMatchObject({ score: null, error: expect.stringContaining('no expected') });
  });

  it('regex tests the text of the output, with its flags, the same way on every item', async () => {
    const s = spec({ type: 'regex', config: { pattern: '^\\d+ ?s$', flags: 'gi' } });
    for (let i = 0; i < 2; i++) expect(await runScorer(s, item({ output: '12 S' }), noNetwork)).toMatchObject({ score: 1, passed: true });
    expect(await runScorer(s, item({ output: 'twelve seconds' }), noNetwork)).toMatchObject({ score: 0, passed: false });
    expect(await scored({ type: 'regex', config: { pattern: '"fps":24' } }, { output: { fps: 24 } })).toMatchObject({ score: 1 });
  });

  it('matches a pattern that would backtrack for hours in linear time', async () => {
    const started = Date.now();
    expect(await scored({ type: 'regex', config: { pattern: '^(a+)+$' } }, { output: `${'a'.repeat(40)}!` })).toMatchObject({ score: 0, error: null });
    expect(await scored({ type: 'regex', config: { pattern: '^(a+)+$' } }, { output: 'a'.repeat(40) })).toMatchObject({ score: 1, error: null });
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('keeps the JavaScript meaning of the flags', async () => {
    expect(await scored({ type: 'regex', config: { pattern: 'b', flags: 'y' } }, { output: 'ab' })).toMatchObject({ score: 0 });
    expect(await scored({ type: 'regex', config: { pattern: 'a', flags: 'y' } }, { output: 'ab' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'regex', config: { pattern: '^b$', flags: 'm' } }, { output: 'a\nb' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'regex', config: { pattern: 'a.b', flags: 's' } }, { output: 'a\nb' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'regex', config: { pattern: '\\u00e9', flags: 'i' } }, { output: 'É' })).toMatchObject({ score: 1 });
  });

  it('string_similarity is 1 - Levenshtein distance / longer length, passing at 0.5 by default', async () => {
    expect(await scored({ type: 'string_similarity' }, { output: 'kitten', expected: 'sitting' })).toEqual({
      scorer: 'string_similarity',
      score: 1 - 3 / 7,
      passed: true,
      details: { distance: 3 },
      error: null,
    });
    expect(await scored({ type: 'string_similarity', config: { threshold: 0.9 } }, { output: 'kitten', expected: 'sitting' })).toMatchObject({ passed: false });
    expect(await scored({ type: 'string_similarity' }, { output: 'abc', expected: 'xyz' })).toMatchObject({ score: 0, passed: false });
    expect(await scored({ type: 'string_similarity' }, { output: '', expected: '' })).toMatchObject({ score: 1, passed: true });
  });

  it('string_similarity refuses texts past its length cap rather than spend quadratic time on them', async () => {
    expect(await scored({ type: 'string_similarity' }, { output: 'a'.repeat(20_001), expected: 'a' })).toMatchObject({
      score: null,
      error: 'compares texts of up to 20000 characters; this output has 20001',
    });
  });
});

describe('runScorer: json_schema, numeric_tolerance, range', () => {
  const schema = { type: 'object', required: ['caption', 'fps'], properties: { caption: { type: 'string' }, fps: { type: 'number' } } };

  it('json_schema scores 1 or 0 and names what did not match', async () => {
    expect(await scored({ type: 'json_schema', config: { schema } }, { output: { caption: 'x', fps: 24 } })).toMatchObject({ score: 1, passed: true, details: null });
    const failed = await scored({ type: 'json_schema', config: { schema } }, { output: { caption: 3 } });
    expect(failed).toMatchObject({ score: 0, passed: false, error: null });
    expect(failed.details).toEqual({
      errors: [
        { path: '/', message: "must have required property 'fps'" },
        { path: '/caption', message: 'must be string' },
      ],
    });
  });

  it('json_schema checks an output held as JSON text as the value it encodes, and a field of the output', async () => {
    expect(await scored({ type: 'json_schema', config: { schema } }, { output: '{"caption":"x","fps":24}' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'json_schema', config: { schema: { type: 'string' } } }, { output: 'plain text' })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'json_schema', config: { schema: { type: 'integer' }, field: 'video.fps' } }, { output: { video: { fps: 23.976 } } })).toMatchObject({
      score: 0,
    });
  });

  it('numeric_tolerance passes within the tolerance, and reads numbers held as text', async () => {
    const s = { type: 'numeric_tolerance', config: { field: 'fps', tolerance: 0.5 } };
    expect(await scored(s, { output: { fps: 24.4 }, expected: { fps: 24 } })).toMatchObject({ score: 1, passed: true });
    expect(await scored(s, { output: { fps: 25 }, expected: 24 })).toMatchObject({ score: 0, passed: false, details: { difference: 1 } });
    expect(await scored({ type: 'numeric_tolerance', config: { tolerance: 0 } }, { output: ' 42 ', expected: '42' })).toMatchObject({ score: 1 });
  });

  it('numeric_tolerance gives an error for what is not a number', async () => {
    const s = { type: 'numeric_tolerance', config: { tolerance: 1 } };
    expect(await scored(s, { output: 'about twelve', expected: 12 })).toMatchObject({ score: null, error: 'the output is not a number' });
    expect(await scored(s, { output: 12, expected: { n: 12 } })).toMatchObject({ score: null, error: 'the expected value is not a number' });
  });

  it('range passes min ≤ value ≤ max, either bound optional', async () => {
    const between = { type: 'range', config: { field: 'video.durationSeconds', min: 5, max: 10 } };
    expect(await scored(between, { output: { video: { durationSeconds: 5 } } })).toMatchObject({ score: 1, passed: true, details: { value: 5 } });
    expect(await scored(between, { output: { video: { durationSeconds: 10 } } })).toMatchObject({ score: 1 });
    expect(await scored(between, { output: { video: { durationSeconds: 10.5 } } })).toMatchObject({ score: 0, passed: false });
    expect(await scored({ type: 'range', config: { field: 'd', max: 3 } }, { output: { d: -100 } })).toMatchObject({ score: 1 });
    expect(await scored({ type: 'range', config: { field: 'd', min: 3 } }, { output: { d: 2 } })).toMatchObject({ score: 0 });
    expect(await scored(between, { output: { video: {} } })).toMatchObject({ error: "the output has no field 'video.durationSeconds'" });
    expect(await scored(between, { output: { video: { durationSeconds: 'long' } } })).toMatchObject({ error: "the output's video.durationSeconds is not a number" });
  });

  it('applies config.threshold to an all-or-nothing scorer too', async () => {
    expect(await scored({ type: 'exact_match', config: { threshold: 0 } }, { output: 'a', expected: 'b' })).toMatchObject({ score: 0, passed: true });
  });
});

describe('runScorer: llm_judge', () => {
  const judge = {
    name: 'vivid',
    type: 'llm_judge',
    config: { baseUrl: 'https://llm.example.com/v1/', model: 'judge-1', rubric: 'Is the caption vivid?', apiKey: { secret: 'JUDGE_KEY' } },
  };
  const secret = 'sk-live-very-secret-123';

  it('asks the chat endpoint with the rubric and the item, sending the key from the secret', async () => {
    const { deps, calls, asked } = fakeDeps(judgeAnswer('{"score": 0.8, "reason": "lively"}'), { JUDGE_KEY: secret });
    const result = await scored(judge, { input: { prompt: 'a cat' }, expected: 'a cat at dusk', output: 'A cat leaps at dusk' }, deps);
    expect(result).toEqual({ scorer: 'vivid', score: 0.8, passed: true, details: { reason: 'lively' }, error: null });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call.url).toBe('https://llm.example.com/v1/chat/completions');
    // The value is asked for the URL it goes to: project-service releases it only for an allowed host.
    expect(asked).toEqual([{ name: 'JUDGE_KEY', url: 'https://llm.example.com/v1/chat/completions' }]);
    expect(call.options).toEqual({ headers: { Authorization: `Bearer ${secret}` }, timeoutMs: 5000 });
    expect(call.body).toMatchObject({ model: 'judge-1', temperature: 0 });
    const [system, user] = (call.body as ChatBody).messages;
    expect(system.role).toBe('system');
    expect(system.content).toContain('Is the caption vivid?');
    expect(system.content).toMatch(/between 0 and 1.*"score"/s);
    expect(user.role).toBe('user');
    expect(JSON.parse(user.content) as unknown).toEqual({ input: { prompt: 'a cat' }, expected: 'a cat at dusk', output: 'A cat leaps at dusk' });
  });

  it('asks for the key at call time, sends nothing when it cannot be had, and no Authorization without apiKey', async () => {
    const secrets: Record<string, string | undefined> = {};
    const { deps, calls } = fakeDeps(judgeAnswer('0.4'), secrets);
    expect(await scored(judge, { output: 'x' }, deps)).toMatchObject({ error: expect.stringContaining("the secret 'JUDGE_KEY' could not be used") });
    expect(calls).toHaveLength(0);
    secrets.JUDGE_KEY = secret;
    expect(await scored(judge, { output: 'x' }, deps)).toMatchObject({ score: 0.4, passed: false, details: null });
    const keyless = { type: 'llm_judge', config: { baseUrl: 'http://localhost:11434/v1/chat/completions', model: 'm', rubric: 'r' } };
    await scored(keyless, { output: 'x' }, deps);
    expect(calls[1]).toMatchObject({ url: 'http://localhost:11434/v1/chat/completions', options: { headers: {} } });
  });

  it('keeps a query of the base URL', async () => {
    const { deps, calls } = fakeDeps(judgeAnswer('1'));
    await scored({ type: 'llm_judge', config: { baseUrl: 'https://az.example.com/openai/deployments/j?api-version=2024-06-01', model: 'm', rubric: 'r' } }, {}, deps);
    expect(calls[0].url).toBe('https://az.example.com/openai/deployments/j/chat/completions?api-version=2024-06-01');
  });

  it.each([
    ['```json\n{"score": 0.9, "reason": "good"}\n```', 0.9],
    ['Score: 0.7/1', 0.7],
    ['7/10', 0.7],
    ['70%', 0.7],
  ])('parses the judge answer %j', async (content, score) => {
    const { deps } = fakeDeps(judgeAnswer(content), { JUDGE_KEY: secret });
    expect((await scored(judge, { output: 'x' }, deps)).score).toBeCloseTo(score, 10);
  });

  it('threshold applies to the judge score', async () => {
    const { deps } = fakeDeps(judgeAnswer('0.6'), { JUDGE_KEY: secret });
    expect(await scored({ ...judge, config: { ...judge.config, threshold: 0.7 } }, { output: 'x' }, deps)).toMatchObject({ score: 0.6, passed: false });
  });

  it.each([
    ['garbage', judgeAnswer('I cannot grade this'), /holds no score/],
    ['a score outside 0..1', judgeAnswer('1.5'), /outside 0\.\.1/],
    ['no content', { status: 200, body: { choices: [] } }, /no choices\[0\]\.message\.content/],
    ['a refusal echoing the key', { status: 401, body: { error: { message: `Incorrect API key provided: ${secret}` } } }, /^the judge answered HTTP 401$/],
  ])('gives an error for %s, never showing the key', async (_, answer, message) => {
    const { deps } = fakeDeps(answer, { JUDGE_KEY: secret });
    const result = await scored(judge, { output: 'x' }, deps);
    expect(result).toMatchObject({ score: null, passed: null, details: null, error: expect.stringMatching(message) });
    expect(JSON.stringify(result)).not.toContain(secret);
  });

  it('refuses a judge stored with apiKeyEnv, reading no environment', async () => {
    const { deps, calls } = fakeDeps(judgeAnswer('1'));
    const stored = { name: 'old', type: 'llm_judge', config: { baseUrl: 'https://llm.example.com/v1', model: 'm', rubric: 'r', apiKeyEnv: 'PATH' } } as unknown as ScorerSpec;
    expect(await runScorer(stored, item({ output: 'x' }), deps)).toMatchObject({ score: null, error: expect.stringContaining('apiKeyEnv, which is no longer read') });
    expect(calls).toHaveLength(0);
  });

  it('turns a throwing postJson into an error result, with the key cut out', async () => {
    const { deps } = fakeDeps(new Error(`connect ECONNREFUSED (Authorization: Bearer ${secret})`), { JUDGE_KEY: secret });
    const result = await scored(judge, { output: 'x' }, deps);
    expect(result).toEqual({
      scorer: 'vivid',
      score: null,
      passed: null,
      details: null,
      error: 'could not reach the judge: connect ECONNREFUSED (Authorization: Bearer [redacted])',
    });
  });
});

describe('runScorer: http', () => {
  const remote = { name: 'house-rules', type: 'http', config: { url: 'https://scorer.example.com/score', headers: { 'X-Token': 'tok-secret-42' } } };
  const answering = (body: unknown, status = 200) => fakeDeps({ status, body });

  it('POSTs input, expected, output and metadata with the headers, and takes the score', async () => {
    const { deps, calls } = answering({ score: 0.75, details: { notes: ['ok'] } });
    const result = await scored(remote, { input: { p: 1 }, expected: 'e', output: 'o', metadata: { tag: 'm' } }, deps);
    expect(result).toEqual({ scorer: 'house-rules', score: 0.75, passed: true, details: { notes: ['ok'] }, error: null });
    expect(calls).toEqual([
      {
        url: 'https://scorer.example.com/score',
        body: { input: { p: 1 }, expected: 'e', output: 'o', metadata: { tag: 'm' } },
        options: { headers: { 'X-Token': 'tok-secret-42' }, timeoutMs: 5000 },
      },
    ]);
  });

  it('lets the endpoint decide passed, else applies the threshold', async () => {
    expect(await scored(remote, { output: 'o' }, answering({ score: 0.9, passed: false }).deps)).toMatchObject({ score: 0.9, passed: false });
    expect(await scored(remote, { output: 'o' }, answering({ score: 0.2, passed: true }).deps)).toMatchObject({ score: 0.2, passed: true });
    expect(await scored(remote, { output: 'o' }, answering({ score: 0.2, passed: 'yes' }).deps)).toMatchObject({ passed: false, details: null });
  });

  it('sends only the field of the output when config.field is set', async () => {
    const { deps, calls } = answering({ score: 1 });
    await scored({ ...remote, config: { ...remote.config, field: 'caption' } }, { output: { caption: 'c', video: {} } }, deps);
    expect((calls[0].body as { output: unknown }).output).toBe('c');
  });

  it.each([
    ['no object', 'fine', /did not answer a JSON object/],
    ['no score', { passed: true }, /no score in 0\.\.1/],
    ['a score outside 0..1', { score: 7 }, /no score in 0\.\.1/],
    ['a score as text', { score: '0.5' }, /no score in 0\.\.1/],
    ['a list', [{ score: 1 }], /did not answer a JSON object/],
  ])('gives an error for an answer with %s', async (_, body, message) => {
    expect(await scored(remote, { output: 'o' }, answering(body).deps)).toMatchObject({ score: null, passed: null, error: expect.stringMatching(message) });
  });

  it('gives an error for a failed status and for a throwing postJson, hiding header values', async () => {
    expect(await scored(remote, { output: 'o' }, answering({ error: 'tok-secret-42 is wrong' }, 500).deps)).toMatchObject({
      error: 'the scorer endpoint answered HTTP 500',
    });
    const result = await scored(remote, { output: 'o' }, fakeDeps(new Error('timeout sending X-Token: tok-secret-42')).deps);
    expect(result).toMatchObject({ score: null, error: 'could not reach the scorer endpoint: timeout sending X-Token: [redacted]' });
  });

  it('sends credential headers from secrets, asked for the scorer URL, and never shows their values', async () => {
    const withSecret = { type: 'http', config: { url: 'https://scorer.example.com/score', headers: { Authorization: { secret: 'SCORER' }, 'X-Team': 'video' } } };
    const { deps, calls, asked } = fakeDeps({ status: 200, body: { score: 1 } }, { SCORER: 'Bearer scorer-value-77' });
    expect(await scored(withSecret, { output: 'o' }, deps)).toMatchObject({ score: 1, error: null });
    expect(asked).toEqual([{ name: 'SCORER', url: 'https://scorer.example.com/score' }]);
    expect(calls[0].options.headers).toEqual({ Authorization: 'Bearer scorer-value-77', 'X-Team': 'video' });
    const failing = fakeDeps(new Error('socket hang up sending Authorization: Bearer scorer-value-77'), { SCORER: 'Bearer scorer-value-77' });
    const result = await scored(withSecret, { output: 'o' }, failing.deps);
    expect(result.error).toBe('could not reach the scorer endpoint: socket hang up sending Authorization: [redacted]');
  });

  it('replaces oversized details by a note', async () => {
    const result = await scored(remote, { output: 'o' }, answering({ score: 1, details: 'x'.repeat(20_000) }).deps);
    expect(result.details).toEqual({ note: expect.stringContaining('details omitted') });
  });
});

describe('runScorer: never throws', () => {
  it('gives an error for a spec it does not know', async () => {
    const bogus = { name: 'old', type: 'sentiment', config: {} } as unknown as ScorerSpec;
    expect(await runScorer(bogus, item(), noNetwork)).toEqual({ scorer: 'old', score: null, passed: null, details: null, error: "unknown scorer type 'sentiment'" });
  });

  it('gives an error for an output it cannot serialise', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const result = await scored({ type: 'contains', config: { value: 'x' } }, { output: cyclic }, noNetwork);
    expect(result).toMatchObject({ score: null, error: expect.stringMatching(/^failed: /) });
  });
});
