import { expect } from '@jest/globals';
import { DomainError, ErrorCode, type ProjectContext, type TraceInput } from '@cinetrace/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { AuthGuard, Credentials } from '../auth/auth.guard';
import { serveTraceIngestFastPath } from './trace-ingest-fast-path';
import { TraceIngestor } from '../traces/trace-ingestor';

const API_KEY = 'ct_valid';
const PROJECT_KEY = 'video-gen';
const CONTROLLER = { answeredBy: 'controller' };

/**
 * The fast path on a bare Fastify whose POST /api/v1/traces (and its neighbours) stand in for
 * the routes Nest registers: a handler answering CONTROLLER. A fake guard knows one key
 * pair; a fake ingestor validates with the real rules and keeps what it publishes. Errors
 * land in an error handler answering their code, as GatewayExceptionFilter does under Nest.
 */
async function setup() {
  const published: Array<{ ctx: ProjectContext; traces: TraceInput[] }> = [];
  const asked: unknown[] = [];
  const auth = {
    authenticate: async (credentials: Credentials, access: string, route: unknown) => {
      asked.push({ access, route });
      if (credentials.authorization !== `Bearer ${API_KEY}` || credentials.projectKey !== PROJECT_KEY) throw new DomainError(ErrorCode.Unauthenticated, 'no key');
      return { orgId: 'org_1', apiKeyId: 'key_1', scopes: ['ingest'], project: { id: 'prj_1' } };
    },
  } as unknown as AuthGuard;
  const streams = {
    serializesRecords: false,
    publish: async (_topic: string, records: Array<{ value: { projectId: string; trace: TraceInput } }>) => {
      published.push({ ctx: { projectId: records[0].value.projectId } as ProjectContext, traces: records.map((r) => r.value.trace) });
    },
  };
  const ingestor = new TraceIngestor(streams as never, { request: async () => ({}) } as never);
  const fastify: FastifyInstance = Fastify();
  fastify.setErrorHandler((err, _request, reply) => {
    const code = err instanceof DomainError ? err.code : 'internal';
    void reply.status(code === ErrorCode.Unauthenticated ? 401 : 400).send({ code });
  });
  serveTraceIngestFastPath(fastify, auth, ingestor);
  for (const [method, url] of [
    ['POST', '/api/v1/traces'],
    ['GET', '/api/v1/traces'],
    ['POST', '/api/v1/traces/batch'],
  ] as const) {
    fastify.route({ method, url, handler: async () => CONTROLLER });
  }
  await fastify.ready();
  return { fastify, published, asked };
}

const headers = { authorization: `Bearer ${API_KEY}`, 'x-project-key': PROJECT_KEY, 'content-type': 'application/json' };
const trace = { id: 'tr_1', name: 'render', spans: [{ id: 'sp_1', name: 'generate', startTime: '2026-01-01T00:00:00.000Z' }] };

describe('POST /api/v1/traces on the fast path', () => {
  it('answers 202 with the Location itself, as the key’s project, asking the ingest scope', async () => {
    const { fastify, published, asked } = await setup();
    const reply = await fastify.inject({ method: 'POST', url: '/api/v1/traces', headers, payload: trace });
    expect([reply.statusCode, reply.headers.location, reply.json()]).toEqual([202, '/api/v1/traces/tr_1', { id: 'tr_1', status: 'running', spanCount: 1 }]);
    expect(published).toHaveLength(1);
    expect(published[0].ctx.projectId).toBe('prj_1');
    expect(published[0].traces[0]).toMatchObject({ id: 'tr_1', name: 'render' });
    expect(asked).toEqual([{ access: 'project', route: { scope: 'ingest', wholeOrganization: false, instanceAdmin: false } }]);
  });

  it('leaves a request with an Idempotency-Key to the controller (its interceptor stores and replays the answer)', async () => {
    const { fastify, published } = await setup();
    const reply = await fastify.inject({ method: 'POST', url: '/api/v1/traces', headers: { ...headers, 'idempotency-key': 'k1' }, payload: trace });
    expect([reply.statusCode, reply.json()]).toEqual([200, CONTROLLER]);
    expect(published).toEqual([]);
  });

  it('refuses a wrong key, then a query parameter, then an invalid trace, before anything is published', async () => {
    const { fastify, published } = await setup();
    const unauthenticated = await fastify.inject({ method: 'POST', url: '/api/v1/traces?debug=1', headers: { ...headers, authorization: 'Bearer nope' }, payload: trace });
    expect([unauthenticated.statusCode, unauthenticated.json()]).toEqual([401, { code: ErrorCode.Unauthenticated }]);
    const query = await fastify.inject({ method: 'POST', url: '/api/v1/traces?debug=1', headers, payload: trace });
    expect([query.statusCode, query.json()]).toEqual([400, { code: ErrorCode.ValidationFailed }]);
    const invalid = await fastify.inject({ method: 'POST', url: '/api/v1/traces', headers, payload: { id: 'tr_2', spans: [{ id: 'sp_1' }] } });
    expect([invalid.statusCode, invalid.json()]).toEqual([400, { code: ErrorCode.ValidationFailed }]);
    expect(published).toEqual([]);
  });

  it('takes no other route: GET of the list and the batch stay the controller’s', async () => {
    const { fastify, published } = await setup();
    for (const [method, url] of [
      ['GET', '/api/v1/traces'],
      ['POST', '/api/v1/traces/batch'],
    ] as const) {
      const reply = await fastify.inject({ method, url, headers, ...(method === 'POST' ? { payload: { traces: [trace] } } : {}) });
      expect([url, reply.statusCode, reply.json()]).toEqual([url, 200, CONTROLLER]);
    }
    expect(published).toEqual([]);
  });
});
