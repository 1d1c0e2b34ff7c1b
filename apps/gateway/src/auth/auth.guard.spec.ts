import { hashApiKey } from '@cinetrace/auth';
import type { BusClient } from '@cinetrace/bus';
import { AuthResolveRequest, DomainError, ErrorCode } from '@cinetrace/contracts';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Access, ACCESS_METADATA } from './access.decorators';
import { AuthCache } from './auth-cache';
import { AuthGuard } from './auth.guard';
import type { AuthenticatedRequest } from './caller';

const KEY = 'ct_a_perfectly_good_key';

/** project-service as the guard sees it: one known key, one project. */
function fakeBus() {
  const calls: AuthResolveRequest[] = [];
  const bus = {
    request: async (_: string, query: AuthResolveRequest) => {
      calls.push(query);
      if (query.apiKeyHash !== hashApiKey(KEY)) throw new DomainError(ErrorCode.Unauthenticated, 'unknown key');
      if (query.projectKey && query.projectKey !== 'video-prod') throw new DomainError(ErrorCode.InvalidProjectKey, 'no such project');
      return { orgId: 'org_1', apiKeyId: 'key_1', ...(query.projectKey ? { project: { id: 'prj_1', key: 'video-prod' } } : {}) };
    },
  };
  return { bus: bus as unknown as BusClient, calls };
}

function contextFor(access: Access | undefined, headers: Record<string, string>) {
  const request = { headers, id: 'req-1' } as unknown as AuthenticatedRequest;
  const handler = () => undefined;
  if (access) Reflect.defineMetadata(ACCESS_METADATA, access, handler);
  const context = {
    getHandler: () => handler,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

describe('AuthGuard', () => {
  const setup = () => {
    const { bus, calls } = fakeBus();
    return { guard: new AuthGuard(new Reflector(), bus, new AuthCache(5000)), calls };
  };

  it('lets public routes through without credentials', async () => {
    await expect(setup().guard.canActivate(contextFor('public', {}).context)).resolves.toBe(true);
  });

  it('answers unauthenticated without a Bearer key, or with a wrong one', async () => {
    const { guard } = setup();
    for (const headers of [{}, { authorization: `Basic ${KEY}` }, { authorization: 'Bearer wrong' }]) {
      await expect(guard.canActivate(contextFor('organization', headers).context)).rejects.toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('sends only the hash of the key over the bus', async () => {
    const { guard, calls } = setup();
    await guard.canActivate(contextFor('organization', { authorization: `Bearer ${KEY}` }).context);
    expect(calls).toEqual([{ apiKeyHash: hashApiKey(KEY), projectKey: undefined }]);
    expect(JSON.stringify(calls)).not.toContain(KEY);
  });

  it('requires X-Project-Key on project routes (the default)', async () => {
    const { guard } = setup();
    const { context } = contextFor(undefined, { authorization: `Bearer ${KEY}` });
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'project_key_required' });
  });

  it('answers invalid_project_key for a project key the organization does not have', async () => {
    const { guard } = setup();
    const { context } = contextFor(undefined, { authorization: `Bearer ${KEY}`, 'x-project-key': 'someone-elses' });
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'invalid_project_key' });
  });

  it('resolves the project and caches the answer briefly', async () => {
    const { guard, calls } = setup();
    const headers = { authorization: `Bearer ${KEY}`, 'x-project-key': 'video-prod' };
    const { context, request } = contextFor(undefined, headers);
    await guard.canActivate(context);
    await guard.canActivate(contextFor(undefined, headers).context);
    expect(request.auth).toEqual({ orgId: 'org_1', apiKeyId: 'key_1', project: { id: 'prj_1', key: 'video-prod' } });
    expect(calls).toHaveLength(1);
  });
});
