import { hashApiKey } from '@cinetrace/auth';
import type { Repository } from 'typeorm';
import type { ApiKey } from '../organizations/api-key.entity';
import type { ProjectServiceEnv } from '../project-service.env';
import type { Project } from '../projects/project.entity';
import { AuthService, LAST_USED_PRECISION_MS } from './auth.service';

const HASH = hashApiKey('ct_the_key');
const NOW = 1_800_000_000_000;

function aKey(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: 'key_1',
    orgId: 'org_1',
    name: 'k',
    keyHash: HASH,
    preview: 'ct_the_…',
    scopes: ['read'],
    projectIds: null,
    instanceAdmin: false,
    createdAt: NOW - 3_600_000,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** The repositories as AuthService uses them, counting the `last_used_at` writes. */
function setup(key: ApiKey, instanceAdminIds: string[] = []) {
  const writes: number[] = [];
  const builder: Record<string, unknown> = {};
  for (const step of ['update', 'where', 'andWhere']) builder[step] = () => builder;
  builder.set = (values: { lastUsedAt: number }) => (writes.push(values.lastUsedAt), builder);
  builder.execute = async () => ({ affected: 1 });
  const apiKeys = { findOneBy: async () => key, createQueryBuilder: () => builder } as unknown as Repository<ApiKey>;
  const projects = {
    findOneBy: async ({ key: projectKey }: { key: string }) => ({ id: projectKey === 'a' ? 'prj_a' : 'prj_b', key: projectKey }),
  } as unknown as Repository<Project>;
  const env = { INSTANCE_ADMIN_KEY_IDS: instanceAdminIds } as ProjectServiceEnv;
  return { auth: new AuthService(apiKeys, projects, env), writes };
}

describe('AuthService', () => {
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());

  it("answers the key's scopes, project restriction and instance-admin flag", async () => {
    const { auth } = setup(aKey({ scopes: ['read', 'ingest'], projectIds: ['prj_a'] }));
    await expect(auth.resolve({ apiKeyHash: HASH })).resolves.toEqual({
      orgId: 'org_1',
      apiKeyId: 'key_1',
      scopes: ['read', 'ingest'],
      projectIds: ['prj_a'],
      instanceAdmin: false,
    });
  });

  it('makes instance admins of the stored flag and of INSTANCE_ADMIN_KEY_IDS', async () => {
    await expect(setup(aKey({ instanceAdmin: true })).auth.resolve({ apiKeyHash: HASH })).resolves.toMatchObject({ instanceAdmin: true });
    await expect(setup(aKey(), ['key_1']).auth.resolve({ apiKeyHash: HASH })).resolves.toMatchObject({ instanceAdmin: true });
    await expect(setup(aKey(), ['key_2']).auth.resolve({ apiKeyHash: HASH })).resolves.toMatchObject({ instanceAdmin: false });
  });

  it('answers invalid_project_key for a project outside the key\'s restriction', async () => {
    const { auth } = setup(aKey({ projectIds: ['prj_a'] }));
    await expect(auth.resolve({ apiKeyHash: HASH, projectKey: 'a' })).resolves.toMatchObject({ project: { id: 'prj_a' } });
    await expect(auth.resolve({ apiKeyHash: HASH, projectKey: 'b' })).rejects.toMatchObject({ code: 'invalid_project_key' });
  });

  it('records a use when none is recorded, or the last is a minute old, and not more often', async () => {
    const never = setup(aKey({ lastUsedAt: null }));
    await never.auth.resolve({ apiKeyHash: HASH });
    expect(never.writes).toEqual([NOW]);

    const recent = setup(aKey({ lastUsedAt: NOW - LAST_USED_PRECISION_MS + 1000 }));
    await recent.auth.resolve({ apiKeyHash: HASH });
    expect(recent.writes).toEqual([]);

    const old = setup(aKey({ lastUsedAt: NOW - LAST_USED_PRECISION_MS - 1 }));
    await old.auth.resolve({ apiKeyHash: HASH });
    expect(old.writes).toEqual([NOW]);
  });
});
