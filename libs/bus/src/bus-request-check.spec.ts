import { expect } from '@jest/globals';
import { ErrorCode, Patterns } from '@cinetrace/contracts';
import { busRequestRefusal } from './bus-request-check';

const projectCtx = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'r1', projectId: 'prj_1' };

describe('busRequestRefusal: what a service checks of a bus request before its handler runs', () => {
  it('lets a request of its pattern’s shape through', async () => {
    expect(await busRequestRefusal(Patterns.TraceGet, { ctx: projectCtx, id: 'tr_1' })).toBeUndefined();
    expect(await busRequestRefusal(Patterns.ProjectList, { ctx: { orgId: 'org_1', apiKeyId: 'k', requestId: 'r', projectIds: ['prj_1'] }, page: {} })).toBeUndefined();
    expect(await busRequestRefusal(Patterns.TracePing, {})).toBeUndefined();
    // A benchmark task's worker knows the project, not the organization.
    expect(await busRequestRefusal(Patterns.MediaGet, { ctx: { ...projectCtx, orgId: '' }, id: 'med_1' })).toBeUndefined();
  });

  it('refuses __proto__ keys, and a constructor holding a prototype, at any depth', async () => {
    for (const json of [
      '{"ctx":{"orgId":"o","projectId":"p","__proto__":{"isAdmin":true}},"id":"t"}',
      '{"ctx":{"orgId":"o","projectId":"p"},"id":"t","filters":[{"constructor":{"prototype":{"x":1}}}]}',
    ]) {
      const refusal = await busRequestRefusal(Patterns.TraceGet, JSON.parse(json));
      expect(refusal?.toPayload()).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'request', message: expect.stringContaining('__proto__') }] });
    }
    // A `constructor` that is plain data is data.
    expect(await busRequestRefusal(Patterns.TraceGet, { ctx: projectCtx, id: 't', note: { constructor: 'x' } })).toBeUndefined();
  });

  it('names each field a handler would read wrong: the caller, ids, the request itself', async () => {
    expect((await busRequestRefusal(Patterns.TraceGet, { id: 'tr_1' }))?.errors).toEqual([{ path: 'ctx', message: 'must be a JSON object' }]);
    expect((await busRequestRefusal(Patterns.TraceGet, { ctx: { orgId: 7, projectIds: 'all' }, id: '' }))?.errors).toEqual([
      { path: 'ctx.projectId', message: 'must be a non-empty string' },
      { path: 'ctx.orgId', message: 'must be a string' },
      { path: 'ctx.projectIds', message: 'must be an array of non-empty strings' },
      { path: 'id', message: 'must be a non-empty string' },
    ]);
    expect((await busRequestRefusal(Patterns.ProjectGet, { ctx: { orgId: '' }, id: 'prj_1' }))?.errors).toEqual([{ path: 'ctx.orgId', message: 'must be a non-empty string' }]);
    expect((await busRequestRefusal(Patterns.TraceGet, 'not an object'))?.errors).toEqual([{ path: 'request', message: 'must be a JSON object' }]);
    expect((await busRequestRefusal(Patterns.TraceGet, [projectCtx]))?.errors).toEqual([{ path: 'request', message: 'must be a JSON object' }]);
  });

  it('validates an input its handler takes whole with the input class, as the gateway validates the body', async () => {
    const ctx = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'r1' };
    expect(await busRequestRefusal(Patterns.ApiKeyCreate, { ctx, input: { name: 'CI', scopes: ['ingest'] }, credential: {} })).toBeUndefined();
    const refusal = await busRequestRefusal(Patterns.ApiKeyCreate, { ctx, input: { name: 'CI', scopes: ['root'], isAdmin: true } });
    expect(refusal?.errors?.map((e) => e.path).sort()).toEqual(['input.isAdmin', 'input.scopes[0]']);
    expect((await busRequestRefusal(Patterns.OrganizationCreate, { ctx }))?.errors).toEqual([{ path: 'input', message: 'must be a JSON object' }]);
  });
});
