import { expect } from '@jest/globals';
import { api, Api, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { allApiKeys, anApiKey, API_KEYS, createApiKey, createProject, revokeApiKey } from './support/api-keys';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { aPrompt, PROMPTS } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { anId, BATCH, TRACES, WAIT } from './support/traces';
import { Answer, Schema } from './support/api-types';
import { OpenApiDocument } from './support/openapi-document';

jest.setTimeout(60_000);

/** Short, so revocation can be watched taking effect; the contract's bound is this TTL. */
const AUTH_CACHE_TTL_MS = 1000;

describe('API keys: create, list, revoke, scopes', () => {
  // Two gateway replicas in the distributed mode: a revoked key must be refused by each.
  const ctx = useStack({ env: { AUTH_CACHE_TTL_MS: String(AUTH_CACHE_TTL_MS) }, replicas: { gateway: 2 } });
  /** A client authenticated with `key` (on the first gateway, or the given replica). */
  const as = (key: string, baseUrl = ctx.stack.baseUrl): Api => api(baseUrl, key);
  let project: { id: string; key: string };

  beforeAll(async () => {
    project = await createProject(ctx.api);
  });

  describe('create and list', () => {
    it('answers 201 with the key, shown this once, and lists the key without it', async () => {
      const response = await ctx.api.post<Answer<'createApiKey', 201>>(API_KEYS, anApiKey({ name: 'CI ingest', scopes: ['ingest', 'read'] }));
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toEqual({
        id: expect.stringMatching(/^key_\S+$/),
        name: 'CI ingest',
        scopes: ['read', 'ingest'],
        projectIds: null,
        prefix: expect.any(String),
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        key: expect.stringMatching(/^ct_[A-Za-z0-9_-]{43}$/),
      });
      const { id, key, prefix } = response.body;
      expect(key.startsWith(prefix)).toBe(true);
      expect(prefix.length).toBeLessThan(key.length / 3);
      expect(new URL(response.headers.get('location') ?? '', ctx.stack.baseUrl).pathname).toBe(`${API_KEYS}/${id}`);

      const list = await ctx.api.get<Answer<'listApiKeys'>>(API_KEYS);
      expect(list.status).toBe(200);
      const listed = list.body.data.find((k) => k.id === id);
      expect(listed).toEqual({
        id,
        name: 'CI ingest',
        scopes: ['read', 'ingest'],
        projectIds: null,
        prefix,
        createdAt: response.body.createdAt,
        lastUsedAt: null,
      });
      // Never the key, nor anything longer of it than the prefix, in any list.
      expect(list.text).not.toContain(key);
      expect(list.text).not.toContain(key.slice(0, prefix.length + 4));
    });

    it('lists newest first, in pages, with the bootstrap key among them', async () => {
      const made = [await createApiKey(ctx.api), await createApiKey(ctx.api), await createApiKey(ctx.api)];
      const first = await ctx.api.get<Answer<'listApiKeys'>>(API_KEYS, { limit: 2 });
      expect(first.status).toBe(200);
      expect(first.body.data.map((k) => k.id)).toEqual([made[2].id, made[1].id]);
      const second = await ctx.api.get<Answer<'listApiKeys'>>(API_KEYS, { limit: 2, cursor: first.body.nextCursor ?? undefined });
      expect(second.body.data[0].id).toBe(made[0].id);
      const all = await allApiKeys(ctx.api);
      expect(all.filter((k) => k.scopes.includes('admin') && k.projectIds === null).length).toBeGreaterThanOrEqual(1);
      expectProblem(await ctx.api.get(API_KEYS, { cursor: 'forged' }), 400, 'invalid_cursor');
      expectProblem(await ctx.api.get(API_KEYS, { limit: 0 }), 400, 'validation_failed');
    });

    it('records when a key was last used', async () => {
      const created = await createApiKey(ctx.api, { scopes: ['read'] });
      expect((await as(created.key).get('/api/v1/projects')).status).toBe(200);
      let listed: Schema<'ApiKeyView'> | undefined;
      for (let i = 0; i < 40; i++) {
        listed = (await allApiKeys(ctx.api)).find((k) => k.id === created.id);
        if (listed!.lastUsedAt) break;
        await sleep(100);
      }
      expect(listed!.lastUsedAt).toMatch(ISO_MILLIS_UTC);
      expect(Date.parse(listed!.lastUsedAt!)).toBeGreaterThanOrEqual(Date.parse(created.createdAt));
    });

    it.each([
      ['no name', { name: undefined }, ['name']],
      ['a blank name', { name: '   ' }, ['name']],
      ['no scopes', { scopes: undefined }, ['scopes']],
      ['no scope at all', { scopes: [] }, ['scopes']],
      ['an unknown scope', { scopes: ['read', 'superuser'] }, ['scopes[1]']],
      ['a scope twice', { scopes: ['read', 'read'] }, ['scopes[1]']],
      ['scopes as a string', { scopes: 'admin' }, ['scopes']],
      ['an empty project list', { projectIds: [] }, ['projectIds']],
      ['projectIds null', { projectIds: null }, ['projectIds']],
      ['an unknown field', { owner: 'me' }, ['owner']],
    ])('refuses %s with 400 naming the field', async (_label, overrides, paths) => {
      const body = anApiKey(overrides);
      for (const [field, value] of Object.entries(overrides)) if (value === undefined) delete body[field];
      expectProblem(await ctx.api.post(API_KEYS, body), 400, 'validation_failed', paths);
    });

    it('refuses Idempotency-Key: a replay would need the key stored, and keys are kept as their hash only', async () => {
      const before = (await allApiKeys(ctx.api)).length;
      const response = await ctx.api.withIdempotencyKey(unique('idem')).post(API_KEYS, anApiKey());
      expectProblem(response, 400, 'validation_failed', ['Idempotency-Key']);
      expect((await allApiKeys(ctx.api)).length).toBe(before);
    });

    it('refuses a project id the organization does not have, naming it', async () => {
      const response = await ctx.api.post(API_KEYS, anApiKey({ projectIds: [project.id, 'prj_01jh8z6v9q3m2r7x5c4b1n0k8d'] }));
      expectProblem(response, 400, 'validation_failed', ['projectIds[1]']);
      expect(response.body.errors?.map((e) => e.path)).toEqual(['projectIds[1]']);
    });
  });

  describe('scopes', () => {
    it('read: reads, and is refused every change with 403 insufficient_scope', async () => {
      const reader = as((await createApiKey(ctx.api, { scopes: ['read'] })).key);
      const inProject = reader.withProjectKey(project.key);
      expect((await reader.get('/api/v1/projects')).status).toBe(200);
      expect((await inProject.get(PROMPTS)).status).toBe(200);
      expect((await inProject.get(TRACES)).status).toBe(200);
      const prompt = aPrompt();
      expectProblem(await inProject.post(PROMPTS, prompt), 403, 'insufficient_scope');
      expectProblem(await inProject.post(TRACES, { id: anId() }), 403, 'insufficient_scope');
      expectProblem(await reader.post('/api/v1/projects', { name: unique('P') }), 403, 'insufficient_scope');
      expectProblem(await reader.get(API_KEYS), 403, 'insufficient_scope');
      // Nothing was made by the refused POST.
      expect((await ctx.api.withProjectKey(project.key).get<Answer<'listPrompts'>>(PROMPTS, { q: String(prompt.name) })).body.data).toEqual([]);
    });

    it('ingest: sends traces and nothing else, not even reading them back', async () => {
      const ingester = as((await createApiKey(ctx.api, { scopes: ['ingest'] })).key).withProjectKey(project.key);
      const id = anId();
      expect((await ingester.post(TRACES, { id, name: 'from CI' }, { headers: WAIT })).status).toBe(201);
      expect((await ingester.post(BATCH, { traces: [{ id: anId() }] })).status).toBe(207);
      expectProblem(await ingester.get(TRACES), 403, 'insufficient_scope');
      expectProblem(await ingester.get(`${TRACES}/${id}`), 403, 'insufficient_scope');
      expectProblem(await ingester.get(PROMPTS), 403, 'insufficient_scope');
      expectProblem(await ingester.post(PROMPTS, aPrompt()), 403, 'insufficient_scope');
      expectProblem(await ingester.withoutHeader('X-Project-Key').get('/api/v1/projects'), 403, 'insufficient_scope');
      // The trace it sent is there for a key that may read.
      expect((await ctx.api.withProjectKey(project.key).get(`${TRACES}/${id}`)).status).toBe(200);
    });

    it('write: reads and changes, ingests, but cannot manage keys or organizations', async () => {
      const writer = as((await createApiKey(ctx.api, { scopes: ['write'] })).key);
      const inProject = writer.withProjectKey(project.key);
      expect((await inProject.post(PROMPTS, aPrompt())).status).toBe(201);
      expect((await inProject.get(PROMPTS)).status).toBe(200);
      expect((await inProject.post(TRACES, { id: anId() })).status).toBe(202);
      expect((await writer.post('/api/v1/projects', { name: unique('P') })).status).toBe(201);
      expectProblem(await writer.get(API_KEYS), 403, 'insufficient_scope');
      expectProblem(await writer.post(API_KEYS, anApiKey({ scopes: ['admin'] })), 403, 'insufficient_scope');
      const someKey = await createApiKey(ctx.api);
      expectProblem(await revokeApiKey(writer, someKey.id), 403, 'insufficient_scope');
      expectProblem(await writer.post('/api/v1/organizations', { name: 'Mine' }), 403, 'insufficient_scope');
      // The key it tried to revoke still works.
      expect((await as(someKey.key).get('/api/v1/projects')).status).toBe(200);
    });

    it('admin: manages keys, but only an instance admin creates organizations', async () => {
      const admin = as((await createApiKey(ctx.api, { scopes: ['admin'] })).key);
      const made = await createApiKey(admin, { scopes: ['read'] });
      expect((await admin.get(API_KEYS)).status).toBe(200);
      expect((await revokeApiKey(admin, made.id)).status).toBe(204);
      expectProblem(await admin.post('/api/v1/organizations', { name: 'Mine' }), 403, 'insufficient_scope');
    });
  });

  describe('restricted to some projects', () => {
    it('works in its projects; another project of the organization is 401 invalid_project_key', async () => {
      const other = await createProject(ctx.api);
      const restricted = as((await createApiKey(ctx.api, { scopes: ['write'], projectIds: [project.id] })).key);
      expect((await restricted.withProjectKey(project.key).get(PROMPTS)).status).toBe(200);
      expectProblem(await restricted.withProjectKey(other.key).get(PROMPTS), 401, 'invalid_project_key');
      expectProblem(await restricted.withProjectKey(other.key).post(TRACES, { id: anId() }), 401, 'invalid_project_key');
    });

    it('sees only its projects on /projects, and may not create one', async () => {
      const other = await createProject(ctx.api);
      const restricted = as((await createApiKey(ctx.api, { scopes: ['write'], projectIds: [project.id] })).key);
      const list = await restricted.get<Answer<'listProjects'>>('/api/v1/projects', { limit: 200 });
      expect(list.status).toBe(200);
      expect(list.body.data.map((p) => p.id)).toEqual([project.id]);
      expect((await restricted.get(`/api/v1/projects/${project.id}`)).status).toBe(200);
      const hidden = await restricted.get(`/api/v1/projects/${other.id}`);
      expectProblem(hidden, 404, 'not_found');
      expect(hidden.text).not.toContain(other.key);
      expectProblem(await restricted.post('/api/v1/projects', { name: unique('P') }), 403, 'insufficient_scope');
    });

    it("as admin, still may not manage the organization's keys (it could make itself unrestricted)", async () => {
      const restricted = as((await createApiKey(ctx.api, { scopes: ['admin'], projectIds: [project.id] })).key);
      expectProblem(await restricted.get(API_KEYS), 403, 'insufficient_scope');
      expectProblem(await restricted.post(API_KEYS, anApiKey({ scopes: ['admin'] })), 403, 'insufficient_scope');
    });
  });

  describe('revoke', () => {
    it(`refuses a revoked key on every gateway within AUTH_CACHE_TTL_MS (${AUTH_CACHE_TTL_MS} ms)`, async () => {
      const created = await createApiKey(ctx.api, { scopes: ['read'] });
      if (ctx.stack.mode === 'distributed') expect(ctx.stack.edgeUrls).toHaveLength(2);
      const clients = ctx.stack.edgeUrls.map((url) => as(created.key, url));
      // Each gateway has the key in its cache.
      for (const client of clients) expect((await client.get('/api/v1/projects')).status).toBe(200);

      const revoked = await revokeApiKey(ctx.api, created.id);
      expect(revoked.status).toBe(204);
      expect(revoked.text).toBe('');
      const since = Date.now();
      for (const client of clients) {
        for (;;) {
          const response = await client.get('/api/v1/projects');
          if (response.status === 401) {
            expectProblem(response, 401, 'unauthenticated');
            break;
          }
          expect(response.status).toBe(200);
          // The cache's bound, plus the time one lookup that was under way may take.
          expect(Date.now() - since).toBeLessThan(AUTH_CACHE_TTL_MS + 1000);
          await sleep(50);
        }
      }
      expect((await allApiKeys(ctx.api)).map((k) => k.id)).not.toContain(created.id);
      expectProblem(await revokeApiKey(ctx.api, created.id), 404, 'not_found');
    });

    it('answers 404 for an id that names no key', async () => {
      expectProblem(await revokeApiKey(ctx.api, 'key_01jh8z6v9q3m2r7x5c4b1n0k8d'), 404, 'not_found');
      expectProblem(await revokeApiKey(ctx.api, 'not-even-an-id'), 404, 'not_found');
    });

    it('lets a key revoke itself', async () => {
      const admin = await createApiKey(ctx.api, { scopes: ['admin'] });
      expect((await revokeApiKey(as(admin.key), admin.id)).status).toBe(204);
      await sleep(AUTH_CACHE_TTL_MS + 500);
      expectProblem(await as(admin.key).get(API_KEYS), 401, 'unauthenticated');
    });
  });

  it('is described in the OpenAPI document: routes, bodies and answers', async () => {
    const doc = (await api(ctx.stack.baseUrl).get<OpenApiDocument>('/api/v1/openapi.json')).body;
    expect(Object.keys(doc.paths[API_KEYS])).toEqual(expect.arrayContaining(['get', 'post']));
    expect(Object.keys(doc.paths[`${API_KEYS}/{id}`])).toEqual(['delete']);
    expect(Object.keys(doc.paths['/api/v1/organizations'])).toEqual(['post']);
    const schemas = doc.components.schemas;
    expect(doc.paths[API_KEYS].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateApiKeyInput');
    expect(schemas.CreateApiKeyInput.required).toEqual(expect.arrayContaining(['name', 'scopes']));
    expect(schemas.CreateApiKeyInput.properties.scopes.items.enum).toEqual(['admin', 'read', 'write', 'ingest']);
    expect(Object.keys(schemas.CreatedApiKeyView.properties)).toEqual(expect.arrayContaining(['id', 'name', 'scopes', 'projectIds', 'prefix', 'createdAt', 'key']));
    expect(Object.keys(schemas.ApiKeyView.properties)).toContain('lastUsedAt');
    expect(Object.keys(schemas.ApiKeyView.properties)).not.toContain('key');
    expect(doc.paths['/api/v1/organizations'].post.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/CreateOrganizationInput');
    expect(schemas.CreatedOrganizationView.properties.apiKey.$ref ?? schemas.CreatedOrganizationView.properties.apiKey.allOf?.[0]?.$ref).toBe(
      '#/components/schemas/CreatedApiKeyView',
    );
  });
});
