import { expect } from '@jest/globals';
import Ajv from 'ajv';
import { scorerSchemaErrors } from './scorer-schemas';
import { threadScripts } from './scoring-thread.fixtures';
import { ScoringThreads } from './scoring-threads';
import { validateScorers } from './validate-scorers';

const scripts = threadScripts('scorer-schemas-');
const { tsEntry, spinning } = scripts;
afterAll(() => scripts.remove());

describe('scorerSchemaErrors on ScoringThreads', () => {
  afterEach(() => jest.restoreAllMocks());

  it('refuses an invalid schema naming its field, and compiles nothing on the calling thread', async () => {
    const compile = jest.spyOn(Ajv.prototype, 'compile');
    const threads = new ScoringThreads({ size: 1, threadFile: tsEntry });
    try {
      const raw = [
        { type: 'exact_match' },
        { name: 'valid', type: 'json_schema', config: { schema: { type: 'object', required: ['caption'] } } },
        { name: 'typo', type: 'json_schema', config: { schema: { type: 'strng' } } },
        { name: 'backref', type: 'json_schema', config: { schema: { type: 'string', pattern: '(a)\\1' } } },
      ];
      expect(validateScorers(raw).ok).toBe(true);
      expect(await scorerSchemaErrors(raw, threads, [])).toEqual([
        { path: 'scorers[2].config.schema', message: expect.stringMatching(/^is not a valid JSON Schema: /) },
        { path: 'scorers[3].config.schema', message: expect.stringMatching(/^has a pattern that is not supported: scorers match regular expressions in linear time/) },
      ]);
      // validateScorers and the check above ran here; every compile ran on the thread.
      expect(compile).not.toHaveBeenCalled();
    } finally {
      await threads.close();
    }
  });

  it('compiles the schemas of a request whose other scorers are wrong, but not a schema already refused', async () => {
    const asked: object[] = [];
    const compiler = { schemaProblem: async (schema: object) => (asked.push(schema), 'is not a valid JSON Schema: x') };
    const raw = [{ type: 'regex' }, { type: 'json_schema', config: { schema: { type: 'strng' } } }, { type: 'json_schema', config: { schema: { too: 'big' } } }];
    const errors = [
      { path: 'scorers[0].config.pattern', message: 'is required' },
      { path: 'scorers[2].config.schema', message: 'must be at most 8192 bytes of JSON' },
    ];
    expect(await scorerSchemaErrors(raw, compiler, errors)).toEqual([{ path: 'scorers[1].config.schema', message: 'is not a valid JSON Schema: x' }]);
    expect(asked).toEqual([{ type: 'strng' }]);
  });

  it('refuses a schema whose compile outruns the time limit, naming the field', async () => {
    const threads = new ScoringThreads({ size: 1, timeLimitMs: 100, threadFile: spinning });
    try {
      expect(await scorerSchemaErrors([{ type: 'json_schema', config: { schema: { type: 'object' } } }], threads, [])).toEqual([
        { path: 'scorers[0].config.schema', message: 'could not be compiled: it took longer than 100 ms and was stopped' },
      ]);
    } finally {
      await threads.close();
    }
  });
});
