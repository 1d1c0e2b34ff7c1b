import { expect } from '@jest/globals';
import { api, Api, aProject } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { allApiKeys, anApiKey, API_KEYS, createApiKey, createProject, ORGANIZATIONS, revokeApiKey } from './support/api-keys';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { aPrompt, PROMPTS } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { anId, TRACES, WAIT } from './support/traces';
import { Answer } from './support/api-types';

jest.setTimeout(120_000);

const AUTH_CACHE_TTL_MS = 1000;

describe('Organizations: made by the instance admin, invisible to each other', () => {
  // Its own stack: a test restarts it.
  const ctx = useStack({ own: true, env: { AUTH_CACHE_TTL_MS: String(AUTH_CACHE_TTL_MS) } });
  const as = (key: string): Api => api(ctx.stack.baseUrl, key);

  /** Org A: the bootstrap organization, with a project holding a prompt and a trace. */
  const orgA = { project: { id: '', key: '' }, promptId: '', traceId: '', keyId: '' };
  /** Org B: made through the API; the attacker. */
  let orgB: { id: string; admin: Api; adminKeyId: string };

  beforeAll(async () => {
    orgA.project = await createProject(ctx.api);
    const inA = ctx.api.withProjectKey(orgA.project.key);
    orgA.promptId = (await inA.post<Answer<'createPrompt', 201>>(PROMPTS, aPrompt())).body.id;
    orgA.traceId = anId();
    expect((await inA.post(TRACES, { id: orgA.traceId, name: 'secret trace' }, { headers: WAIT })).status).toBe(201);
    orgA.keyId = (await createApiKey(ctx.api, { scopes: ['read'] })).id;

    const created = await ctx.api.post<Answer<'createOrganization', 201>>(ORGANIZATIONS, { name: 'Studio B' });
    expect(created.status).toBe(201);
    orgB = { id: created.body.id, admin: as(created.body.apiKey.key), adminKeyId: created.body.apiKey.id };
  });

  describe('create', () => {
    it('answers 201 with the organization and its first admin key, shown once', async () => {
      const response = await ctx.api.post<Answer<'createOrganization', 201>>(ORGANIZATIONS, { name: '  Studio C  ' });
      expect(response.status).toBe(201);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(response.body).toEqual({
        id: expect.stringMatching(/^org_\S+$/),
        name: 'Studio C',
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        apiKey: {
          id: expect.stringMatching(/^key_\S+$/),
          name: expect.any(String),
          scopes: ['admin'],
          projectIds: null,
          prefix: expect.any(String),
          createdAt: expect.stringMatching(ISO_MILLIS_UTC),
          key: expect.stringMatching(/^ct_[A-Za-z0-9_-]{43}$/),
        },
      });
      const admin = as(response.body.apiKey.key);
      // A new organization starts empty, and its key manages its keys.
      expect((await admin.get<Answer<'listProjects'>>('/api/v1/projects')).body.data).toEqual([]);
      const keys = await allApiKeys(admin);
      expect(keys.map((k) => k.id)).toEqual([response.body.apiKey.id]);
      expect(JSON.stringify(keys)).not.toContain(response.body.apiKey.key);
    });

    it('is refused to a key that is not an instance admin, even an admin key', async () => {
      const before = (await allApiKeys(orgB.admin)).length;
      expectProblem(await orgB.admin.post(ORGANIZATIONS, { name: 'Escalation' }), 403, 'insufficient_scope');
      const otherAdmin = as((await createApiKey(ctx.api, { scopes: ['admin'] })).key);
      expectProblem(await otherAdmin.post(ORGANIZATIONS, { name: 'Escalation' }), 403, 'insufficient_scope');
      expect((await allApiKeys(orgB.admin)).length).toBe(before);
    });

    it('refuses a missing or blank name with 400 naming it', async () => {
      expectProblem(await ctx.api.post(ORGANIZATIONS, {}), 400, 'validation_failed', ['name']);
      expectProblem(await ctx.api.post(ORGANIZATIONS, { name: ' ' }), 400, 'validation_failed', ['name']);
      expectProblem(await ctx.api.post(ORGANIZATIONS, { name: 'x', slug: 'default' }), 400, 'validation_failed', ['slug']);
      // Its answer holds a key shown once, which is never stored to be replayed.
      expectProblem(await ctx.api.withIdempotencyKey('org-1').post(ORGANIZATIONS, { name: 'x' }), 400, 'validation_failed', ['Idempotency-Key']);
    });
  });

  describe("a key of organization B against organization A's things", () => {
    it("cannot read A's projects: 404 by id, absent from the list", async () => {
      const byId = await orgB.admin.get(`/api/v1/projects/${orgA.project.id}`);
      expectProblem(byId, 404, 'not_found');
      expect(byId.text).not.toContain(orgA.project.key);
      const list = await orgB.admin.get('/api/v1/projects', { limit: 200 });
      expect(list.status).toBe(200);
      expect(list.text).not.toContain(orgA.project.id);
    });

    it("cannot use A's project key: 401 invalid_project_key on every project route", async () => {
      const withAsProject = orgB.admin.withProjectKey(orgA.project.key);
      for (const response of [
        await withAsProject.get(PROMPTS),
        await withAsProject.get(`${PROMPTS}/${orgA.promptId}`),
        await withAsProject.get(TRACES),
        await withAsProject.get(`${TRACES}/${orgA.traceId}`),
        await withAsProject.post(TRACES, { id: orgA.traceId, name: 'overwritten' }),
        await withAsProject.post(PROMPTS, aPrompt()),
      ]) {
        expectProblem(response, 401, 'invalid_project_key');
        expect(response.text).not.toContain(orgA.promptId);
        expect(response.text).not.toContain('secret trace');
      }
    });

    it("cannot see, revoke or restrict to A's keys and projects", async () => {
      const keys = await allApiKeys(orgB.admin);
      expect(keys.map((k) => k.id)).not.toContain(orgA.keyId);
      const revoke = await revokeApiKey(orgB.admin, orgA.keyId);
      expectProblem(revoke, 404, 'not_found');
      expect((await allApiKeys(ctx.api)).map((k) => k.id)).toContain(orgA.keyId);
      expectProblem(await orgB.admin.post(API_KEYS, anApiKey({ projectIds: [orgA.project.id] })), 400, 'validation_failed', ['projectIds[0]']);
    });

    it("never reaches A's resources from a project of its own", async () => {
      const own = await createProject(orgB.admin);
      const inOwn = orgB.admin.withProjectKey(own.key);
      expectProblem(await inOwn.get(`${PROMPTS}/${orgA.promptId}`), 404, 'not_found');
      expectProblem(await inOwn.get(`${TRACES}/${orgA.traceId}`), 404, 'not_found');
      // Project keys are unique per organization only: B may hold the same key as A, and gets its own project.
      const twin = await orgB.admin.post<Answer<'createProject', 201>>('/api/v1/projects', aProject({ key: orgA.project.key }));
      expect(twin.status).toBe(201);
      expect(twin.body.id).not.toBe(orgA.project.id);
      expect((await orgB.admin.withProjectKey(orgA.project.key).get(`${PROMPTS}/${orgA.promptId}`)).status).toBe(404);
    });
  });

  describe('the last admin key', () => {
    it('cannot be revoked; once another exists it can, even by itself', async () => {
      const org = (await ctx.api.post<Answer<'createOrganization', 201>>(ORGANIZATIONS, { name: 'Lonely' })).body;
      const first = as(org.apiKey.key);
      const refused = await revokeApiKey(first, org.apiKey.id);
      expectProblem(refused, 409, 'conflict');
      // A key restricted to projects, or without admin, does not count as one.
      const project = await createProject(first);
      await createApiKey(first, { scopes: ['admin'], projectIds: [project.id] });
      await createApiKey(first, { scopes: ['read', 'write', 'ingest'] });
      expectProblem(await revokeApiKey(first, org.apiKey.id), 409, 'conflict');

      const second = await createApiKey(first, { scopes: ['admin'] });
      expect((await revokeApiKey(first, org.apiKey.id)).status).toBe(204);
      expectProblem(await revokeApiKey(as(second.key), second.id), 409, 'conflict');
    });

    it('survives two admin keys revoking each other at once: never both revoked', async () => {
      const org = (await ctx.api.post<Answer<'createOrganization', 201>>(ORGANIZATIONS, { name: 'Race' })).body;
      const other = await createApiKey(as(org.apiKey.key), { scopes: ['admin'] });
      // Both keys known to the gateway's cache, so both requests get past authentication.
      await Promise.all([as(org.apiKey.key).get(API_KEYS), as(other.key).get(API_KEYS)]);
      const answers = await Promise.all([revokeApiKey(as(org.apiKey.key), other.id), revokeApiKey(as(other.key), org.apiKey.id)]);
      const statuses = answers.map((a) => a.status).sort();
      // The loser is 409 (the last admin key), or 401 if its own key was revoked before it was looked up.
      expect(statuses[0]).toBe(204);
      expect([401, 409]).toContain(statuses[1]);
      const survivor = answers[0].status === 204 ? org.apiKey.key : other.key;
      expect((await allApiKeys(as(survivor))).length).toBe(1);
    });
  });

  describe('instance admins by configuration, and the bootstrap key at restart', () => {
    it('INSTANCE_ADMIN_KEY_IDS makes those keys instance admins; BOOTSTRAP_API_KEY is live again after a revoke', async () => {
      const promoted = await createApiKey(ctx.api, { scopes: ['admin'] });
      expectProblem(await as(promoted.key).post(ORGANIZATIONS, { name: 'Not yet' }), 403, 'insufficient_scope');
      // The bootstrap key revoked (another admin key exists: the promoted one).
      expect((await revokeApiKey(as(promoted.key), await bootstrapKeyId(as(promoted.key)))).status).toBe(204);
      await sleep(AUTH_CACHE_TTL_MS + 500);
      expectProblem(await ctx.api.get('/api/v1/projects'), 401, 'unauthenticated');

      await ctx.stack.restart({ env: { INSTANCE_ADMIN_KEY_IDS: promoted.id } });
      expect((await as(promoted.key).post(ORGANIZATIONS, { name: 'Now allowed' })).status).toBe(201);
      expect((await ctx.api.post(ORGANIZATIONS, { name: 'Bootstrap again' })).status).toBe(201);
    });
  });
});

/** The id of the bootstrap key, as an admin of its organization lists it. */
async function bootstrapKeyId(admin: Api): Promise<string> {
  const keys = await allApiKeys(admin);
  const bootstrap = keys.find((k) => k.name.startsWith('Bootstrap key'));
  if (!bootstrap) throw new Error('no bootstrap key listed');
  return bootstrap.id;
}
