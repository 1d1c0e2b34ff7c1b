import { expect } from '@jest/globals';
import { hashApiKey } from '@cinetrace/auth';
import type { BusClient } from '@cinetrace/bus';
import { ApiKeyScope, AuthResolveReply, AuthResolveRequest, DomainError, ErrorCode } from '@cinetrace/contracts';
import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InstanceAdmin, OrganizationAdmin, OrganizationScoped, Public, RequiresScope, WholeOrganization } from './access.decorators';
import { AuthCache } from './auth-cache';
import { AuthGuard } from './auth.guard';
import type { AuthenticatedRequest } from './caller';

const KEY = 'ct_a_perfectly_good_key';

interface KeySpec {
  scopes?: ApiKeyScope[];
  projectIds?: string[] | null;
  instanceAdmin?: boolean;
}

/** project-service as the guard sees it: one known key (with the given scopes), one project. */
function fakeBus(spec: KeySpec = {}) {
  const calls: AuthResolveRequest[] = [];
  const bus = {
    request: async (_: string, query: AuthResolveRequest): Promise<AuthResolveReply> => {
      calls.push(query);
      if (query.apiKeyHash !== hashApiKey(KEY)) throw new DomainError(ErrorCode.Unauthenticated, 'unknown key');
      if (query.projectKey && query.projectKey !== 'video-prod') throw new DomainError(ErrorCode.InvalidProjectKey, 'no such project');
      return {
        orgId: 'org_1',
        apiKeyId: 'key_1',
        scopes: spec.scopes ?? ['admin'],
        projectIds: spec.projectIds ?? null,
        instanceAdmin: spec.instanceAdmin ?? false,
        ...(query.projectKey ? { project: { id: 'prj_1', key: 'video-prod' } } : {}),
      };
    },
  };
  return { bus: bus as unknown as BusClient, calls };
}

/** A request to a handler carrying `decorators`, as Nest hands it to the guard. */
function contextFor(decorators: MethodDecorator[], headers: Record<string, string>, method = 'GET') {
  const request = { headers, id: 'req-1', method } as unknown as AuthenticatedRequest;
  class Routes {
    handler() {
      return undefined;
    }
  }
  const descriptor = Object.getOwnPropertyDescriptor(Routes.prototype, 'handler')!;
  for (const decorate of decorators) decorate(Routes.prototype, 'handler', descriptor);
  const context = {
    getHandler: () => Routes.prototype.handler,
    getClass: () => Routes,
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
  return { context, request };
}

const withKey = { authorization: `Bearer ${KEY}` };
const withProject = { ...withKey, 'x-project-key': 'video-prod' };

describe('AuthGuard', () => {
  const setup = (spec?: KeySpec) => {
    const { bus, calls } = fakeBus(spec);
    return { guard: new AuthGuard(new Reflector(), bus, new AuthCache(5000)), calls };
  };

  it('lets public routes through without credentials', async () => {
    await expect(setup().guard.canActivate(contextFor([Public()], {}).context)).resolves.toBe(true);
  });

  it('answers unauthenticated without a Bearer key, or with a wrong one', async () => {
    const { guard } = setup();
    const attempts: Record<string, string>[] = [{}, { authorization: `Basic ${KEY}` }, { authorization: 'Bearer wrong' }];
    for (const headers of attempts) {
      await expect(guard.canActivate(contextFor([OrganizationScoped()], headers).context)).rejects.toMatchObject({ code: 'unauthenticated' });
    }
  });

  it('sends only the hash of the key over the bus', async () => {
    const { guard, calls } = setup();
    await guard.canActivate(contextFor([OrganizationScoped()], withKey).context);
    expect(calls).toEqual([{ apiKeyHash: hashApiKey(KEY), projectKey: undefined }]);
    expect(JSON.stringify(calls)).not.toContain(KEY);
  });

  it('requires X-Project-Key on project routes (the default)', async () => {
    const { guard } = setup();
    await expect(guard.canActivate(contextFor([], withKey).context)).rejects.toMatchObject({ code: 'project_key_required' });
  });

  it('answers invalid_project_key for a project key the organization does not have', async () => {
    const { guard } = setup();
    const { context } = contextFor([], { ...withKey, 'x-project-key': 'someone-elses' });
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'invalid_project_key' });
  });

  it('resolves the project and caches the answer briefly', async () => {
    const { guard, calls } = setup();
    const { context, request } = contextFor([], withProject);
    await guard.canActivate(context);
    await guard.canActivate(contextFor([], withProject).context);
    expect(request.auth).toMatchObject({ orgId: 'org_1', apiKeyId: 'key_1', project: { id: 'prj_1', key: 'video-prod' } });
    expect(calls).toHaveLength(1);
  });

  it('answers 503 to a reply without scopes (project-service of the previous release, mid-upgrade), never guessing them', async () => {
    const bus = { request: async () => ({ orgId: 'org_1', apiKeyId: 'key_1' }) } as unknown as BusClient;
    const guard = new AuthGuard(new Reflector(), bus, new AuthCache(5000));
    const { context, request } = contextFor([OrganizationScoped()], withKey, 'GET');
    await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'unavailable', retryAfter: 2 });
    expect(request.auth).toBeUndefined();
  });

  describe('scopes', () => {
    // [key's scopes, route decorators, method, allowed?]
    const decisions: Array<[ApiKeyScope[], string, MethodDecorator[], string, boolean]> = [
      [['read'], 'a GET (read by default)', [], 'GET', true],
      [['read'], 'a POST (write by default)', [], 'POST', false],
      [['read'], 'a PUT', [], 'PUT', false],
      [['read'], 'a DELETE', [], 'DELETE', false],
      [['read'], 'trace ingestion', [RequiresScope('ingest')], 'POST', false],
      [['write'], 'a GET', [], 'GET', true],
      [['write'], 'a POST', [], 'POST', true],
      [['write'], 'a DELETE', [], 'DELETE', true],
      [['write'], 'trace ingestion', [RequiresScope('ingest')], 'POST', true],
      [['write'], 'an admin route', [RequiresScope('admin')], 'GET', false],
      [['ingest'], 'trace ingestion', [RequiresScope('ingest')], 'POST', true],
      [['ingest'], 'a GET', [], 'GET', false],
      [['ingest'], 'a POST that is not ingestion', [], 'POST', false],
      [['admin'], 'a GET', [], 'GET', true],
      [['admin'], 'a DELETE', [], 'DELETE', true],
      [['admin'], 'trace ingestion', [RequiresScope('ingest')], 'POST', true],
      [['admin'], 'an admin route', [RequiresScope('admin')], 'POST', true],
      [['read', 'ingest'], 'trace ingestion', [RequiresScope('ingest')], 'POST', true],
      [['read', 'ingest'], 'a GET', [], 'GET', true],
      [['read', 'ingest'], 'a PUT', [], 'PUT', false],
    ];

    it.each(decisions)('a %j key on %s: allowed %s', async (scopes, _label, decorators, method, allowed) => {
      const { guard } = setup({ scopes });
      const attempt = guard.canActivate(contextFor(decorators, withProject, method).context);
      if (allowed) await expect(attempt).resolves.toBe(true);
      else await expect(attempt).rejects.toMatchObject({ code: ErrorCode.InsufficientScope });
    });

    it('names the scope needed, not what the route does, when refusing', async () => {
      const { guard } = setup({ scopes: ['read'] });
      await expect(guard.canActivate(contextFor([], withProject, 'POST').context)).rejects.toMatchObject({
        code: 'insufficient_scope',
        detail: expect.stringContaining("'write'"),
      });
    });

    it('checks the project before the scope: a foreign project key is 401, not 403', async () => {
      const { guard } = setup({ scopes: ['ingest'] });
      const { context } = contextFor([], { ...withKey, 'x-project-key': 'someone-elses' }, 'GET');
      await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'invalid_project_key' });
    });

    it('refuses organization-wide administration to an admin key restricted to some projects', async () => {
      const { guard } = setup({ scopes: ['admin'], projectIds: ['prj_1'] });
      await expect(guard.canActivate(contextFor([OrganizationAdmin()], withKey, 'GET').context)).rejects.toMatchObject({
        code: 'insufficient_scope',
      });
      await expect(guard.canActivate(contextFor([OrganizationScoped(), WholeOrganization()], withKey, 'POST').context)).rejects.toMatchObject({
        code: 'insufficient_scope',
      });
      // A restricted key may still read the organization's routes (the list is filtered further on).
      await expect(guard.canActivate(contextFor([OrganizationScoped()], withKey, 'GET').context)).resolves.toBe(true);
    });

    it('lets only an instance admin create organizations', async () => {
      await expect(setup({ scopes: ['admin'] }).guard.canActivate(contextFor([InstanceAdmin()], withKey, 'POST').context)).rejects.toMatchObject({
        code: 'insufficient_scope',
      });
      await expect(setup({ scopes: ['admin'], instanceAdmin: true }).guard.canActivate(contextFor([InstanceAdmin()], withKey, 'POST').context)).resolves.toBe(true);
    });

    it('leaves no request authenticated when the scope is refused', async () => {
      const { guard } = setup({ scopes: ['read'] });
      const { context, request } = contextFor([], withProject, 'POST');
      await expect(guard.canActivate(context)).rejects.toMatchObject({ code: 'insufficient_scope' });
      expect(request.auth).toBeUndefined();
    });
  });
});
