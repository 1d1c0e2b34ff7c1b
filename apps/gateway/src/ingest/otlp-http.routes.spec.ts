import { expect } from '@jest/globals';
import { DomainError, ErrorCode, ProjectContext } from '@cinetrace/contracts';
import { decodeExportResponse } from '@cinetrace/traces';
import Fastify, { FastifyInstance } from 'fastify';
import type { AuthGuard, Credentials } from '../auth/auth.guard';
import type { OtlpBody } from './otlp-body';
import { registerOtlpHttpRoutes } from './otlp-http.routes';
import type { OtlpIngest } from './otlp-ingest';
import { ProjectExportsInFlight } from './project-exports-in-flight';

const API_KEY = 'ct_valid';
const PROJECT_KEY = 'video-gen';

/**
 * The OTLP routes on a bare Fastify, with a fake guard (one valid key pair) and a fake
 * ingest that records what it was given. Errors land in an error handler that answers
 * their status and code, as GatewayExceptionFilter does under Nest.
 */
async function setup(rejectedSpans = 0, exportsInFlight = 16, onSend?: (inFlight: ProjectExportsInFlight) => void) {
  const exported: Array<{ ctx: ProjectContext; body: OtlpBody }> = [];
  const inFlight = new ProjectExportsInFlight(exportsInFlight);
  const scopesAsked: unknown[] = [];
  const auth = {
    authenticate: async (credentials: Credentials, access: string, route: unknown) => {
      scopesAsked.push({ access, route });
      if (credentials.authorization !== `Bearer ${API_KEY}`) throw new DomainError(ErrorCode.Unauthenticated, 'no key');
      if (credentials.projectKey !== PROJECT_KEY) throw new DomainError(ErrorCode.ProjectKeyRequired, 'no project');
      return { orgId: 'org_1', apiKeyId: 'key_1', scopes: ['ingest'], project: { id: 'prj_1' } };
    },
  } as unknown as AuthGuard;
  const otlp = {
    export: async (ctx: ProjectContext, body: OtlpBody) => (exported.push({ ctx, body }), { rejectedSpans, errorMessage: rejectedSpans ? 'refused' : '' }),
    // The project's share of the decoding threads is taken for anything past 1 KB.
    refuseBeforeReading: (_ctx: ProjectContext, bytes: number) => {
      if (bytes > 1024) throw new DomainError(ErrorCode.RateLimited, 'share taken', undefined, 1);
    },
    admit: (ctx: ProjectContext) => inFlight.take(ctx.projectId),
  } as unknown as OtlpIngest;
  const parsed: Buffer[] = [];
  const fastify: FastifyInstance = Fastify();
  fastify.addContentTypeParser('application/x-protobuf', { parseAs: 'buffer' }, (_req, bytes, done) => (parsed.push(bytes as Buffer), done(null, { encoding: 'protobuf', bytes })));
  fastify.setErrorHandler((err, _request, reply) => {
    const code = err instanceof DomainError ? err.code : 'internal';
    const status = code === ErrorCode.Unauthenticated || code === ErrorCode.ProjectKeyRequired ? 401 : code === ErrorCode.RateLimited ? 429 : 400;
    void reply.status(status).send({ code });
  });
  if (onSend) fastify.addHook('onSend', async () => onSend(inFlight));
  registerOtlpHttpRoutes(fastify, auth, otlp);
  await fastify.ready();
  return { fastify, exported, scopesAsked, parsed, inFlight };
}

const headers = { authorization: `Bearer ${API_KEY}`, 'x-project-key': PROJECT_KEY, 'content-type': 'application/x-protobuf' };
const payload = Buffer.from([0x0a, 0x00]);

describe('the OTLP/HTTP routes, served outside Nest', () => {
  it.each(['/v1/traces', '/api/v1/otel/v1/traces'])('%s exports as the key’s project and answers an ExportTraceServiceResponse', async (url) => {
    const { fastify, exported, scopesAsked } = await setup(2);
    const reply = await fastify.inject({ method: 'POST', url, headers, payload });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/x-protobuf');
    expect(decodeExportResponse(reply.rawPayload)).toEqual({ partialSuccess: { rejectedSpans: 2, errorMessage: 'refused' } });
    expect(exported).toHaveLength(1);
    expect(exported[0].ctx).toMatchObject({ orgId: 'org_1', projectId: 'prj_1', requestId: expect.any(String) });
    expect(exported[0].body).toEqual({ encoding: 'protobuf', bytes: payload });
    // The scope the OTLP operations document: project access with `ingest`.
    expect(scopesAsked).toEqual([{ access: 'project', route: { scope: 'ingest', wholeOrganization: false, instanceAdmin: false } }]);
  });

  it('refuses a wrong key before anything is exported', async () => {
    const { fastify, exported } = await setup();
    const reply = await fastify.inject({ method: 'POST', url: '/v1/traces', headers: { ...headers, authorization: 'Bearer nope' }, payload });
    expect([reply.statusCode, reply.json()]).toEqual([401, { code: ErrorCode.Unauthenticated }]);
    expect(exported).toHaveLength(0);
  });

  it('refuses a missing or wrong key before the body is read: its parser never runs', async () => {
    const { fastify, exported, parsed } = await setup();
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
    for (const authorization of ['', 'Bearer nope']) {
      const reply = await fastify.inject({ method: 'POST', url: '/v1/traces', headers: { ...headers, authorization, 'content-encoding': 'gzip' }, payload: garbage });
      expect([reply.statusCode, reply.json()]).toEqual([401, { code: ErrorCode.Unauthenticated }]);
    }
    expect(parsed).toHaveLength(0);
    expect(exported).toHaveLength(0);
  });

  it('refuses a large export unread while its project holds its share of the decoding threads, and takes a small one', async () => {
    const { fastify, exported, parsed } = await setup();
    const large = await fastify.inject({ method: 'POST', url: '/v1/traces', headers, payload: Buffer.alloc(4096) });
    expect([large.statusCode, large.json()]).toEqual([429, { code: ErrorCode.RateLimited }]);
    expect(parsed).toHaveLength(0);
    expect((await fastify.inject({ method: 'POST', url: '/v1/traces', headers, payload })).statusCode).toBe(200);
    expect(exported).toHaveLength(1);
  });

  it('refuses any export unread while its project has OTLP_PROJECT_EXPORTS in flight, and takes the next once one is answered', async () => {
    const { fastify, exported, parsed, inFlight } = await setup(0, 2);
    // Two of the project's exports still being read or decoded.
    const first = inFlight.take('prj_1');
    inFlight.take('prj_1');
    const refused = await fastify.inject({ method: 'POST', url: '/v1/traces', headers, payload });
    expect([refused.statusCode, refused.json()]).toEqual([429, { code: ErrorCode.RateLimited }]);
    expect(parsed).toHaveLength(0);
    first();
    // Answered exports give their slot back: three in a row pass with one slot free.
    for (let i = 0; i < 3; i++) expect((await fastify.inject({ method: 'POST', url: '/v1/traces', headers, payload })).statusCode).toBe(200);
    expect(exported).toHaveLength(3);
  });

  it('gives the export its slot back before its answer is sent: a client answered may export again at once', async () => {
    let heldWhenSent: boolean | undefined;
    // Whether another export of the project would be refused at the moment the answer goes out.
    const { fastify } = await setup(0, 1, (inFlight) => {
      let free: (() => void) | undefined;
      try {
        free = inFlight.take('prj_1');
      } catch {
        free = undefined;
      }
      heldWhenSent = free === undefined;
      free?.();
    });
    expect((await fastify.inject({ method: 'POST', url: '/v1/traces', headers, payload })).statusCode).toBe(200);
    expect(heldWhenSent).toBe(false);
  });

  it('refuses query parameters, after the keys, as every route that defines none does', async () => {
    const { fastify, exported } = await setup();
    const refused = await fastify.inject({ method: 'POST', url: '/v1/traces?debug=1', headers, payload });
    expect([refused.statusCode, refused.json()]).toEqual([400, { code: ErrorCode.ValidationFailed }]);
    const unauthenticated = await fastify.inject({ method: 'POST', url: '/v1/traces?debug=1', headers: { ...headers, authorization: '' }, payload });
    expect(unauthenticated.statusCode).toBe(401);
    expect(exported).toHaveLength(0);
  });
});
