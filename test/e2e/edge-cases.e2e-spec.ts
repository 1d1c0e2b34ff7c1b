import { expect } from '@jest/globals';
import { ApiResponse } from '@cinetrace/testing';
import { aBenchmark, BENCHMARKS, benchmarkPath } from './support/benchmarks';
import { appendOk, allItems, createDataset, DATASETS, itemsPath, readDataset } from './support/datasets';
import { expectProblem } from './support/expectations';
import { problemIn, rawRequest, RawResponse } from './support/raw-http';
import { aPrompt, createPrompt, inNewProject, PROMPTS, put } from './support/prompts';
import { aTrace, BATCH, readNow, TRACES, WAIT } from './support/traces';
import { useStack } from './support/stack-hooks';
import { Answer, Problem } from './support/api-types';

jest.setTimeout(60_000);

/** MAX_JSON_DEPTH's default: objects and arrays inside one another, the document being level 1. */
const MAX_DEPTH = 64;

/** `levels` arrays inside one another, as JSON text. */
const nestedArrays = (levels: number): string => '['.repeat(levels) + ']'.repeat(levels);
const zeros = (count: number): string => '[0]'.repeat(count);

const errorPaths = (response: ApiResponse): string[] => ((response.body as Partial<Problem> | undefined)?.errors ?? []).map((e) => e.path);

describe('Edge cases of JSON and HTTP', () => {
  const ctx = useStack();

  describe(`JSON nested deeper than ${MAX_DEPTH} levels`, () => {
    // Each body holds nested arrays at `at`, whose outermost array is at `level`. Ids need
    // not exist: the body is refused as it is read, before any service is asked.
    const routes: Array<[string, string, (json: string) => string, string, number]> = [
      ['POST', '/api/v1/projects', (j) => `{"name":"p","description":{"x":${j}}}`, 'description.x', 3],
      ['POST', PROMPTS, (j) => `{"name":"p","content":"c","type":"text-to-text","metadata":{"a":${j}}}`, 'metadata.a', 3],
      ['PUT', `${PROMPTS}/prm_missing`, (j) => `{"metadata":{"a":${j}}}`, 'metadata.a', 3],
      ['POST', TRACES, (j) => `{"name":"t","metadata":{"a":${j}}}`, 'metadata.a', 3],
      ['POST', BATCH, (j) => `{"traces":[{"metadata":${j}}]}`, 'traces[0].metadata', 4],
      ['POST', DATASETS, (j) => `{"name":"d","items":[{"input":${j}}]}`, 'items[0].input', 4],
      ['POST', itemsPath('ds_missing'), (j) => `{"items":${j}}`, 'items', 2],
      ['POST', BENCHMARKS, (j) => `{"name":"b","target":{"a":${j}}}`, 'target.a', 3],
      ['POST', `${benchmarkPath('bm_missing')}/start`, (j) => `{"experiment":{"flags":${j}}}`, 'experiment.flags', 3],
    ];

    it.each(routes)('%s %s: 400 naming where the body goes past the limit, at one level over and at 10,000', async (method, path, body, at, level) => {
      const { api } = await inNewProject(ctx.api);
      const send = (levels: number) => api.request(method, path, { raw: body(nestedArrays(levels)), contentType: 'application/json' });
      const mostLevels = MAX_DEPTH - level + 1;
      for (const levels of [mostLevels + 1, 10_000]) {
        const response = await send(levels);
        expectProblem(response, 400, 'validation_failed');
        expect(errorPaths(response)).toEqual([`${at}${zeros(mostLevels)}`]);
        expect(response.body.errors?.[0].message).toMatch(/deeper than 64 levels/);
      }
      // At the limit the body gets past the parser, to whatever the route thinks of the rest.
      const atLimit = await send(mostLevels);
      expect(atLimit.status).toBeLessThan(500);
      expect(errorPaths(atLimit).some((p: string) => p.includes(zeros(mostLevels)))).toBe(false);
    });

    it('stores JSON nested exactly to the limit intact', async () => {
      const { api } = await inNewProject(ctx.api);
      const deepest: unknown = JSON.parse(nestedArrays(MAX_DEPTH - 2));
      const prompt = await createPrompt(api, { metadata: { a: deepest } });
      expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body.metadata).toEqual({ a: deepest });
      const trace = aTrace({ metadata: { a: deepest } });
      expect((await api.post(TRACES, trace, { headers: WAIT })).status).toBe(201);
      expect((await readNow(api, trace.id)).metadata).toEqual({ a: deepest });
    });

    it('applies the same limit to a list’s args, naming the filter', async () => {
      const { api } = await inNewProject(ctx.api);
      const args = (levels: number) => `{"metadata":{"a":${nestedArrays(levels)}}}`;
      const response = await api.get(TRACES, { args: args(200) });
      expectProblem(response, 400, 'validation_failed', [`args.metadata.a${zeros(MAX_DEPTH - 2)}`]);
      // Past the body limit, but within it the trace list's own rule holds: a metadata
      // filter's values nest at most 32 levels (docs/decisions/2026-11-25-trace-robustness.md).
      expect((await api.get(TRACES, { args: args(30) })).status).toBe(200);
      expectProblem(await api.get(TRACES, { args: args(MAX_DEPTH - 2) }), 400, 'validation_failed', ['args.metadata']);
    });
  });

  describe('keys named constructor, prototype, __proto__', () => {
    it('stores constructor and prototype keys of user data exactly as sent', async () => {
      const { api } = await inNewProject(ctx.api);
      const data: Record<string, unknown> = { constructor: 'dolly', prototype: { constructor: { name: 'x' } }, list: [{ constructor: null }] };

      const dataset = await createDataset(api, { items: [{ input: data, expected: { constructor: 1 }, metadata: data }] });
      await appendOk(api, dataset.id, [{ input: { constructor: [] } }]);
      const items = await allItems(api, dataset.id);
      const expected: unknown[][] = [
        [data, { constructor: 1 }, data],
        [{ constructor: [] }, null, {}],
      ];
      expect(items.map((i) => [i.input, i.expected, i.metadata])).toEqual(expected);

      const prompt = await createPrompt(api, { metadata: data });
      expect((await put(api, prompt.id, { metadata: { ...data, constructor: 'crane' } })).status).toBe(200);
      expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body.metadata).toEqual({ ...data, constructor: 'crane' });

      const trace = aTrace({ metadata: data, input: data });
      expect((await api.post(TRACES, trace, { headers: WAIT })).status).toBe(201);
      expect(await readNow(api, trace.id)).toMatchObject({ metadata: data, input: data });

      // A JSON schema with a property named `constructor` is an ordinary schema.
      const schema = { type: 'object', properties: { constructor: { type: 'string' } }, required: ['constructor'] };
      const benchmark = await api.post<Answer<'createBenchmark', 201>>(BENCHMARKS, aBenchmark(dataset.id, { scorers: [{ type: 'json_schema', config: { schema } }] }));
      expect(benchmark.status).toBe(201);
      expect((await api.get<Answer<'getBenchmark'>>(benchmarkPath(benchmark.body.id))).body.scorers[0].config.schema).toEqual(schema);
    });

    it('refuses constructor and __proto__ where a body declares its fields, naming them instead of dropping them', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const benchmark = await api.post(BENCHMARKS, { ...aBenchmark(dataset.id), constructor: 1, runner: { constructor: 'x' } });
      expectProblem(benchmark, 400, 'validation_failed', ['constructor', 'runner.constructor']);
      const prompt = await api.post(PROMPTS, undefined, { raw: JSON.stringify(aPrompt()).replace('{', '{"constructor":{},'), contentType: 'application/json' });
      expectProblem(prompt, 400, 'validation_failed', ['constructor']);
      expectProblem(await api.post(itemsPath(dataset.id), { items: [{ input: 1 }, { input: 2, constructor: 3 }] }), 400, 'validation_failed', ['items[1].constructor']);
      expect((await api.get<Answer<'listBenchmarks'>>(BENCHMARKS)).body.data).toEqual([]);
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data).toEqual([]);
      expect((await readDataset(api, dataset.id)).itemCount).toBe(0);
    });

    it('refuses keys through which a merge could reach a prototype, naming where they are', async () => {
      const { api } = await inNewProject(ctx.api);
      const send = (path: string, raw: string) => api.post(path, undefined, { raw, contentType: 'application/json' });
      expectProblem(await send(PROMPTS, '{"name":"p","content":"c","type":"text-to-text","metadata":{"x":{"__proto__":{"polluted":1}}}}'), 400, 'validation_failed', [
        'metadata.x.__proto__',
      ]);
      expectProblem(await send(DATASETS, '{"name":"d","items":[{"input":{"constructor":{"prototype":{"polluted":1}}}}]}'), 400, 'validation_failed', [
        'items[0].input.constructor.prototype',
      ]);
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data).toEqual([]);
      expect((await api.get<Answer<'listDatasets'>>(DATASETS)).body.data).toEqual([]);
    });
  });

  describe('dataset items that are not objects', () => {
    it('answers 400 naming each such item, on create and on append, and stores nothing', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: [{ input: 'kept' }] });
      for (const items of [[[]], [{ input: 1 }, [{ input: 2 }]], [null]]) {
        const index = items.findIndex((item) => item === null || Array.isArray(item));
        expectProblem(await api.post(itemsPath(dataset.id), { items }), 400, 'validation_failed', [`items[${index}]`]);
        expectProblem(await api.post(DATASETS, { name: 'd', items }), 400, 'validation_failed', [`items[${index}]`]);
      }
      expect(await readDataset(api, dataset.id)).toMatchObject({ itemCount: 1, version: 1 });
      expect((await api.get<Answer<'listDatasets'>>(DATASETS)).body.data.map((d: { id: string }) => d.id)).toEqual([dataset.id]);
    });
  });

  describe('answers that come before any route: problem+json too', () => {
    /** The answer is a problem with this status and code, carrying its X-Request-Id in the header and the body. */
    const expectRawProblem = (response: RawResponse, status: number, code: string) => {
      expect({ status: response.status, code: problemIn(response)?.code }).toEqual({ status, code });
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json\b/);
      expect(response.body).toMatchObject({ type: 'about:blank', status, title: expect.any(String), detail: expect.any(String) });
      expect(response.headers['x-request-id']).toBe(problemIn(response)?.requestId);
    };
    const auth = () => `Authorization: Bearer ${ctx.stack.apiKey}\r\n`;

    it.each(['/api/v1/prompts/%ff', '/api/v1/traces/%C0%AF', '/api/v1/projects/a%e2%82'])('answers a %%-escape that is not UTF-8 (%s) with 400 malformed_request', async (path) => {
      const response = await ctx.api.get(path);
      expectProblem(response, 400, 'malformed_request');
      expect(response.text).not.toMatch(/FST_ERR/);
    });

    it('answers a path segment longer than any id (1024) with 414 uri_too_long', async () => {
      expectProblem(await ctx.api.get(`/api/v1/traces/${'t'.repeat(2000)}`), 414, 'uri_too_long');
      expect((await ctx.api.get(`/api/v1/traces/${'t'.repeat(1024)}`)).status).not.toBe(414);
    });

    it('answers a request line past 16 KiB with 414 and headers past it with 431, as problems', async () => {
      const longUrl = `GET /api/v1/projects?name=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`;
      expectRawProblem(await rawRequest(ctx.stack.baseUrl, longUrl), 414, 'uri_too_long');
      const bigHeaders = `GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n${auth()}X-Filler: ${'f'.repeat(20_000)}\r\n\r\n`;
      expectRawProblem(await rawRequest(ctx.stack.baseUrl, bigHeaders), 431, 'headers_too_large');
    });

    it.each([
      ['a header without a colon', 'GET /api/v1/projects HTTP/1.1\r\nHost: x\r\nNot a header\r\n\r\n'],
      ['Content-Length with Transfer-Encoding', 'POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n{}'],
      ['a broken chunk size', 'POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
      ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n'],
      ['a control character in the URL', 'GET /api/v1/pro\x01jects HTTP/1.1\r\nHost: x\r\n\r\n'],
      ['an HTTP/1.1 request without Host', 'GET /api/v1/projects HTTP/1.1\r\nAccept: */*\r\n\r\n'],
    ])('answers %s with 400 malformed_request', async (_label, request) => {
      expectRawProblem(await rawRequest(ctx.stack.baseUrl, request), 400, 'malformed_request');
    });

    it('answers a body that is not UTF-8 with 400 invalid_json saying so, and creates nothing', async () => {
      const name = `Latin-1 caf\xe9 ${Date.now()}`;
      const raw = Buffer.concat([Buffer.from('{"name":"'), Buffer.from(name, 'latin1'), Buffer.from('"}')]);
      const response = await ctx.api.post('/api/v1/projects', undefined, { raw, contentType: 'application/json' });
      expectProblem(response, 400, 'invalid_json');
      expect(response.body.detail).toMatch(/UTF-8/);
      expect((await ctx.api.get<Answer<'listProjects'>>('/api/v1/projects', { args: JSON.stringify({ name }) })).body.data).toEqual([]);
      // The same text as UTF-8 is fine.
      const utf8 = await ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', { name });
      expect(utf8.status).toBe(201);
      expect(utf8.body.name).toBe(name);
    });

    it.each([
      ['OPTIONS', '/api/v1/prompts', 'GET, POST'],
      ['OPTIONS', '/api/v1/traces/tr_1', 'GET'],
      ['OPTIONS', '/api/v1/benchmarks/bm_1/start', 'POST'],
      ['DELETE', '/api/v1/media/med_1', 'GET'],
      ['PUT', '/api/v1/media/med_1/content', 'GET'],
    ])('answers %s %s with 405 and Allow: %s', async (method, path, allow) => {
      const response = await ctx.api.request(method, path);
      expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe(allow);
    });

    it('answers TRACE (which fetch will not send) with 405 and Allow too', async () => {
      const response = await rawRequest(ctx.stack.baseUrl, `TRACE /api/v1/datasets/ds_1 HTTP/1.1\r\nHost: x\r\n${auth()}\r\n`);
      expectRawProblem(response, 405, 'method_not_allowed');
      expect(response.headers.allow).toBe('GET, DELETE');
    });
  });

  describe('query parameters a route does not define', () => {
    it('are 400 naming each, on every single-resource route and on creates, and change nothing', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const prompt = await createPrompt(api);
      const trace = aTrace();
      expect((await api.post(TRACES, trace, { headers: WAIT })).status).toBe(201);
      const benchmark = (await api.post<Answer<'createBenchmark', 201>>(BENCHMARKS, aBenchmark(dataset.id))).body;
      const project = (await ctx.api.get<Answer<'listProjects'>>('/api/v1/projects', { limit: 1 })).body.data[0];
      const reads = [
        `/api/v1/projects/${project.id}`,
        `${PROMPTS}/${prompt.id}`,
        `${PROMPTS}/by-identifier/${prompt.identifier}`,
        `${TRACES}/${trace.id}`,
        `${DATASETS}/${dataset.id}`,
        benchmarkPath(benchmark.id),
      ];
      for (const path of reads) {
        const client = path.startsWith('/api/v1/projects') ? ctx.api : api;
        expect((await client.get(path)).status).toBe(200);
        expectProblem(await client.get(path, { expand: 'all', fields: 'id' }), 400, 'validation_failed', ['expand', 'fields']);
      }
      expectProblem(await api.get(`${DATASETS}/${dataset.id}/items`, { expand: 'all' }), 400, 'validation_failed', ['expand']);
      expectProblem(await api.request('DELETE', `${DATASETS}/${dataset.id}`, { query: { force: 'true' } }), 400, 'validation_failed', ['force']);
      expectProblem(await api.post(PROMPTS, aPrompt(), { query: { dryRun: 'true' } }), 400, 'validation_failed', ['dryRun']);
      expect((await api.get(`${DATASETS}/${dataset.id}`)).status).toBe(200);
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data.map((p: { id: string }) => p.id)).toEqual([prompt.id]);
    });
  });
});
