import { Api, ApiResponse, unique } from '@cinetrace/testing';
import fc from 'fast-check';
import { aBenchmark } from './support/benchmarks';
import { appendOk, createDataset } from './support/datasets';
import { Answer, ListPage, Schema } from './support/api-types';
import { aListQuery, aTrace, deepBody, fromSchema, oddString, wildJson } from './support/fuzz-arbitraries';
import { aMediaContentType, aMediaSourceAnswer, type MediaSources, startMediaSources } from './support/fuzz-media-sources';
import { OpenApiDocument, Operation as OperationSpec } from './support/openapi-document';
import { addOrganization } from './support/organizations';
import { OTLP_TRACES, OTLP_TRACES_UNDER_API } from './support/otlp';
import { createPrompt, inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { aTrace as aValidTrace, WAIT } from './support/traces';

/**
 * Property-based fuzzing of every route the OpenAPI document lists, as a client holding
 * a valid key to one project would: bodies and queries shaped by the document's schemas
 * with wild values mixed in, ids of its own project, of another project of its
 * organization and of another organization. Whatever is sent, the answer is never a 5xx,
 * every 4xx is problem+json, and nothing of the others appears. The seed is fixed (FUZZ_SEED overrides it) and the runs bounded (FUZZ_RUNS).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 50);

/** Written into everything of the other project; it must never come back to this one. */
const MARKER = `foreign-${unique('marker')}`;

/** Query names list routes filter on; a route that has not the name refuses it (400). */
/** Routes whose errors are OTLP's google.rpc.Status, not problem details (docs/api-reference.md, "OTLP ingest"). */
const OTLP_ROUTES = [OTLP_TRACES, OTLP_TRACES_UNDER_API];
const FILTER_NAMES = ['status', 'name', 'runId', 'type', 'label', 'q', 'includeDeleted', 'userId', 'sessionId', 'tags', 'projectId', 'contentType'];

interface Operation {
  method: string;
  path: string;
  spec: OperationSpec;
}

interface FuzzRequest {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  json?: unknown;
  raw?: string | Buffer;
}

/** Bodies no schema describes: too deep, not UTF-8, not JSON, empty. */
const RAW_BODIES: Array<string | Buffer> = [
  deepBody(12_000),
  deepBody(1_500),
  Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  '{"name": "x",',
  '',
  '[[]]',
  '{"items":[[]]}',
  '{"constructor":{"prototype":{"polluted":true}}}',
];

/** Percent-encodes a path value; lone surrogates (no UTF-8 form) go as bytes that are not UTF-8. */
function encodePathValue(value: string): string {
  return value
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%A0%80' : encodeURIComponent(part)))
    .join('');
}

/** Header values stay printable ASCII: fetch itself refuses anything else. */
const headerValue = fc.oneof(
  fc.constantFrom('wait', 'respond-async', '"1"', '"999"', '*', 'W/"1"', ''),
  fc.string({ maxLength: 20 }).map((s) => s.replace(/[^\x20-\x7e]/g, '')),
);

describe('Fuzzing every route (fast-check)', () => {
  const ctx = useStack();
  let doc: OpenApiDocument;
  let own: Api;
  let foreign: Api;
  let foreignOrg: Api;
  const ownIds: string[] = [];
  const foreignIds: string[] = [];

  /** A prompt, a dataset with items, a benchmark and a trace in the project behind `api`. */
  async function populate(api: Api, tag: string, ids: string[]): Promise<void> {
    const prompt = await createPrompt(api, { name: `${tag} prompt`, identifier: `p-${unique('id')}`.toLowerCase(), metadata: { note: tag } });
    const dataset = await createDataset(api, { name: `${tag} dataset`, description: tag });
    await appendOk(api, dataset.id, [{ input: { prompt: tag }, expected: { caption: tag }, metadata: { output: { caption: tag } } }]);
    const benchmark = await api.post<Schema<'BenchmarkView'>>('/api/v1/benchmarks', aBenchmark(dataset.id, { name: `${tag} benchmark`, description: tag }));
    if (benchmark.status !== 201) throw new Error(`benchmark create answered ${benchmark.status}: ${benchmark.text}`);
    const trace = aValidTrace({ name: `${tag} trace`, metadata: { note: tag }, input: { prompt: tag } });
    const stored = await api.post('/api/v1/traces', trace, { headers: WAIT });
    if (stored.status !== 201) throw new Error(`trace ingest answered ${stored.status}: ${stored.text}`);
    // Media whose bytes carry the tag: another project's content route would show it.
    const media = await api.request<Answer<'createMedia'>>('POST', '/api/v1/media', { raw: Buffer.from(`${tag} media ${unique('m')}`), contentType: 'image/png' });
    if (media.status !== 201) throw new Error(`media upload answered ${media.status}: ${media.text}`);
    ids.push(prompt.id, prompt.identifier, dataset.id, benchmark.body.id, trace.id, media.body.id);
  }

  beforeAll(async () => {
    own = (await inNewProject(ctx.api)).api;
    foreign = (await inNewProject(ctx.api)).api;
    await populate(own, 'own', ownIds);
    await populate(foreign, MARKER, foreignIds);
    // A tenant next door: another organization, with a project and a secret of its own.
    foreignOrg = (await addOrganization(ctx.stack)).api;
    const secret = await foreignOrg.post<Schema<'SecretView'>>('/api/v1/secrets', { name: `${MARKER}-key`, value: `${MARKER}-value` });
    if (secret.status !== 201) throw new Error(`secret create answered ${secret.status}: ${secret.text}`);
    foreignIds.push(secret.body.id);
    await populate((await inNewProject(foreignOrg)).api, MARKER, foreignIds);
    doc = (await ctx.api.get<OpenApiDocument>('/api/v1/openapi.json')).body;
  }, 120_000);

  const operations = (): Operation[] =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'post', 'put', 'delete', 'patch'].includes(method))
        .map(([method, spec]) => ({ method: method.toUpperCase(), path, spec })),
    );

  function requestsFor(op: Operation): fc.Arbitrary<FuzzRequest> {
    const ids = fc.constantFrom(...ownIds, ...foreignIds);
    const pathValue = fc.oneof({ weight: 3, arbitrary: ids }, { weight: 1, arbitrary: oddString });
    const params = op.spec.parameters ?? [];
    const pathNames = params.filter((p) => p.in === 'path').map((p) => p.name);
    const declaredQuery = params.filter((p) => p.in === 'query').map((p) => p.name);
    const isList = op.method === 'GET' && !/\}$/.test(op.path);
    const query = isList
      ? aListQuery([...new Set([...declaredQuery, ...FILTER_NAMES])])
      : fc.dictionary(fc.constantFrom(...declaredQuery, 'stray'), fc.oneof(fc.constantFrom('1', 'true', '0'), oddString), { maxKeys: 2 });
    const bodySchema = op.spec.requestBody?.content?.['application/json']?.schema;
    const jsonBody =
      op.path === '/api/v1/traces'
        ? aTrace
        : op.path === '/api/v1/traces/batch'
          ? fc.oneof(fc.record({ traces: fc.array(aTrace, { maxLength: 3 }) }), wildJson)
          : bodySchema
            ? fromSchema(doc, bodySchema, ids)
            : wildJson;
    const body = fc.oneof({ weight: 8, arbitrary: jsonBody.map((json) => ({ json })) }, { weight: 1, arbitrary: fc.constantFrom(...RAW_BODIES).map((raw) => ({ raw })) });
    return fc
      .record({
        values: fc.tuple(...pathNames.map(() => pathValue)),
        query,
        headers: fc.record({ Prefer: headerValue, 'If-Match': headerValue }, { requiredKeys: [] }),
        body: ['POST', 'PUT', 'PATCH'].includes(op.method) ? body : fc.constant({}),
      })
      .map(({ values, query: q, headers, body: b }) => ({
        path: pathNames.reduce((path, name, i) => path.replace(`{${name}}`, encodePathValue(values[i] as string)), op.path),
        query: q as Record<string, string>,
        headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>,
        ...b,
      }));
  }

  async function send(api: Api, op: Operation, request: FuzzRequest): Promise<ApiResponse> {
    const base = { query: request.query, headers: request.headers, timeoutMs: 30_000 };
    if (request.json !== undefined) return api.request(op.method, request.path, { ...base, json: request.json });
    if (request.raw !== undefined) return api.request(op.method, request.path, { ...base, raw: request.raw, contentType: 'application/json' });
    return api.request(op.method, request.path, base);
  }

  /** What must hold for any answer; the message names the request, to replay it. */
  function check(op: Operation, request: FuzzRequest, response: ApiResponse): void {
    const replay = `${op.method} ${request.path} ${JSON.stringify(request.query)} body=${JSON.stringify(request.json ?? String(request.raw ?? '')).slice(0, 300)}`;
    if (response.status >= 500) throw new Error(`${response.status} for ${replay}: ${response.text.slice(0, 300)}`);
    if (response.status >= 400 && OTLP_ROUTES.includes(op.path)) {
      // The OTLP routes answer as the OTLP specification says: a google.rpc.Status in the request's encoding (JSON here).
      const type = response.headers.get('content-type') ?? '';
      const status = response.body as { code?: unknown; message?: unknown } | undefined; // what it is, this checks
      if (!type.startsWith('application/json') || typeof status?.code !== 'number' || typeof status?.message !== 'string') {
        throw new Error(`${response.status} without a google.rpc.Status (${type}) for ${replay}: ${response.text.slice(0, 200)}`);
      }
    } else if (response.status >= 400) {
      const type = response.headers.get('content-type') ?? '';
      if (!type.startsWith('application/problem+json')) throw new Error(`${response.status} as ${type} for ${replay}: ${response.text.slice(0, 200)}`);
      const problem = response.body as { status?: unknown; code?: unknown } | undefined; // what it is, this checks
      if (problem?.status !== response.status || typeof problem?.code !== 'string') {
        throw new Error(`a problem without its status or code for ${replay}: ${response.text.slice(0, 200)}`);
      }
    }
    if (response.text.includes(MARKER)) throw new Error(`the other project's data came back for ${replay}: ${response.text.slice(0, 300)}`);
    if (!response.headers.get('x-request-id')) throw new Error(`no X-Request-Id for ${replay}`);
  }

  it('finds routes to fuzz in the OpenAPI document', () => {
    expect(operations().length).toBeGreaterThanOrEqual(20);
  });

  it('never answers 5xx, answers every 4xx as problem+json (OTLP routes: a google.rpc.Status), and never shows another project', async () => {
    // One property per route, so a failure names the route; the seed makes every run the same.
    const failures: string[] = [];
    for (const op of operations()) {
      // The document names the project key as a security scheme of the operations that need it.
      const projectScoped = (op.spec.security ?? []).some((requirement) => 'projectKey' in requirement);
      const api = projectScoped ? own : ctx.api;
      const details = await fc.check(
        fc.asyncProperty(requestsFor(op), async (request) => check(op, request, await send(api, op, request))),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      if (details.failed) failures.push(`${op.method} ${op.path}: ${String((details.errorInstance as Error)?.message ?? details.errorInstance).slice(0, 600)}`);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('left the other project and organization as they were', async () => {
    const [promptId, , datasetId, benchmarkId, traceId, mediaId, secretId] = foreignIds;
    const secrets = await foreignOrg.get<ListPage<Schema<'SecretView'>>>('/api/v1/secrets');
    expect(secrets.body.data.map((s) => s.id)).toContain(secretId);
    for (const path of [
      `/api/v1/prompts/${promptId}`,
      `/api/v1/datasets/${datasetId}`,
      `/api/v1/benchmarks/${benchmarkId}`,
      `/api/v1/traces/${traceId}`,
      `/api/v1/media/${mediaId}/content`,
    ]) {
      const response = await foreign.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      expect(response.text).toContain(MARKER);
    }
  });
});

describe('Fuzzing media { url } fetches: answers that are not media, or break off (OUTBOUND_ALLOW_PRIVATE for a local source)', () => {
  // Small limits, so that a large or endless answer is refused within the run.
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', MEDIA_MAX_BYTES: String(1024 * 1024), MEDIA_FETCH_TIMEOUT_MS: '3000' } });
  let sources: MediaSources;
  beforeAll(async () => {
    sources = await startMediaSources();
  });
  afterAll(() => sources?.close());

  it('never answers 5xx, answers every 4xx as problem+json naming url, and the process that fetched keeps running', async () => {
    const { api } = await inNewProject(ctx.api);
    const edge = ctx.stack.mode === 'all-in-one' ? 'all-in-one' : 'gateway';
    const pid = ctx.stack.pid(edge);
    const details = await fc.check(
      fc.asyncProperty(aMediaSourceAnswer, aMediaContentType, async (answer, contentType) => {
        const body = contentType === undefined ? { url: sources.url(answer) } : { url: sources.url(answer), contentType };
        const response = await api.post<Answer<'createMedia'>>('/api/v1/media', body, { timeoutMs: 30_000 });
        const replay = `${JSON.stringify(answer)} contentType=${String(contentType)}`;
        if (response.status >= 500) throw new Error(`${response.status} for ${replay}: ${response.text.slice(0, 300)}`);
        if (response.status >= 400 && !(response.headers.get('content-type') ?? '').startsWith('application/problem+json')) {
          throw new Error(`${response.status} without a problem for ${replay}: ${response.text.slice(0, 200)}`);
        }
        if (response.status === 400 && !response.text.includes('"url"') && !response.text.includes('"contentType"')) {
          throw new Error(`a 400 naming neither url nor contentType for ${replay}: ${response.text.slice(0, 300)}`);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(details.failed ? String((details.errorInstance as Error)?.message ?? details.errorInstance) : 'passed').toBe('passed');
    expect(sources.hits).toBeGreaterThan(0);
    // A dropped body's error comes a moment after its answer: the process must still be the same one, answering.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(ctx.stack.pid(edge)).toBe(pid);
    expect((await api.get('/api/v1/media')).status).toBe(200);
  }, 300_000);
});
