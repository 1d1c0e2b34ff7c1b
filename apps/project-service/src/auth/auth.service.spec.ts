import { hashApiKey } from '@cinetrace/auth';
import { ErrorCode } from '@cinetrace/contracts';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { UpdateQueryBuilder, type Repository, type UpdateResult } from 'typeorm';
import { ApiKey } from '../store/api-key.entity';
import { Organization } from '../store/organization.entity';
import type { ProjectServiceEnv } from '../project-service.env';
import { projectServiceStore } from '../project-service.module';
import { Project } from '../store/project.entity';
import { AuthService, LAST_USED_PRECISION_MS } from './auth.service';

const NOW = 1_800_000_000_000;
let keys = 0;

/** A stored key of org_1 and the hash the gateway sends for it. */
function aKey(overrides: Partial<ApiKey> = {}): ApiKey {
  const id = `key_${++keys}`;
  return {
    id,
    orgId: 'org_1',
    name: 'k',
    keyHash: hashApiKey(`ct_secret_of_${id}`),
    preview: 'ct_secr…',
    scopes: ['read'],
    projectIds: null,
    instanceAdmin: false,
    createdAt: NOW - 3_600_000,
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

// project-service resolving the gateway's credentials on both of its stores.
describe.each(TEST_STORES)('AuthService on %s', (kind) => {
  let store: TestStore;
  let apiKeys: Repository<ApiKey>;
  let auth: AuthService;

  const authWith = (instanceAdminIds: string[]) => new AuthService(store.dataSource, { INSTANCE_ADMIN_KEY_IDS: instanceAdminIds } as ProjectServiceEnv);
  const stored = async (overrides: Partial<ApiKey> = {}) => {
    const key = aKey(overrides);
    await apiKeys.insert(key);
    return key;
  };
  /** The use is recorded after the answer: wait until the row shows it (or give up and show what it holds). */
  const lastUsedOf = async (id: string, expected: number | null) => {
    for (let i = 0; i < 50; i++) {
      const { lastUsedAt } = await apiKeys.findOneByOrFail({ id });
      if (lastUsedAt === expected) return lastUsedAt;
      await sleep(10);
    }
    return (await apiKeys.findOneByOrFail({ id })).lastUsedAt;
  };

  beforeAll(async () => {
    store = await openTestStore(kind, projectServiceStore);
    const { dataSource } = store;
    apiKeys = dataSource.getRepository(ApiKey);
    await dataSource.getRepository(Organization).insert([
      { id: 'org_1', slug: 'one', name: 'One', createdAt: 1 },
      { id: 'org_2', slug: 'two', name: 'Two', createdAt: 1 },
    ]);
    await dataSource.getRepository(Project).insert([
      { id: 'prj_a', orgId: 'org_1', name: 'A', description: '', key: 'alpha', createdAt: 1, updatedAt: 1 },
      { id: 'prj_b', orgId: 'org_1', name: 'B', description: '', key: 'beta', createdAt: 1, updatedAt: 1 },
      { id: 'prj_c', orgId: 'org_2', name: 'C', description: '', key: 'gamma', createdAt: 1, updatedAt: 1 },
    ]);
    auth = authWith([]);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
  afterEach(() => jest.restoreAllMocks());

  it("answers the key's organization, scopes and project restriction", async () => {
    const key = await stored({ scopes: ['read', 'ingest'], projectIds: ['prj_a'] });
    expect(await auth.resolve({ apiKeyHash: key.keyHash })).toEqual({
      orgId: 'org_1',
      apiKeyId: key.id,
      scopes: ['read', 'ingest'],
      projectIds: ['prj_a'],
      instanceAdmin: false,
    });
  });

  it('refuses an unknown key and a revoked one with unauthenticated', async () => {
    const revoked = await stored({ revokedAt: NOW - 1000 });
    const unauthenticated = { code: ErrorCode.Unauthenticated, detail: 'The API key is missing, malformed or unknown' };
    await expect(auth.resolve({ apiKeyHash: hashApiKey('ct_nobody_issued_this') })).rejects.toMatchObject(unauthenticated);
    await expect(auth.resolve({ apiKeyHash: revoked.keyHash })).rejects.toMatchObject(unauthenticated);
  });

  it('makes instance admins of the stored flag and of INSTANCE_ADMIN_KEY_IDS, no one else', async () => {
    const flagged = await stored({ instanceAdmin: true });
    const listed = await stored();
    const plain = await stored();
    const withList = authWith([listed.id]);
    expect(await withList.resolve({ apiKeyHash: flagged.keyHash })).toMatchObject({ instanceAdmin: true });
    expect(await withList.resolve({ apiKeyHash: listed.keyHash })).toMatchObject({ instanceAdmin: true });
    expect(await withList.resolve({ apiKeyHash: plain.keyHash })).toMatchObject({ instanceAdmin: false });
  });

  it("resolves a project key of the key's organization, and no other organization's", async () => {
    const key = await stored();
    expect(await auth.resolve({ apiKeyHash: key.keyHash, projectKey: 'beta' })).toMatchObject({ project: { id: 'prj_b', key: 'beta' } });
    await expect(auth.resolve({ apiKeyHash: key.keyHash, projectKey: 'gamma' })).rejects.toMatchObject({ code: ErrorCode.InvalidProjectKey });
    await expect(auth.resolve({ apiKeyHash: key.keyHash, projectKey: 'missing' })).rejects.toMatchObject({ code: ErrorCode.InvalidProjectKey });
  });

  it("answers invalid_project_key for a project outside the key's restriction", async () => {
    const key = await stored({ projectIds: ['prj_a'] });
    expect(await auth.resolve({ apiKeyHash: key.keyHash, projectKey: 'alpha' })).toMatchObject({ project: { id: 'prj_a' } });
    await expect(auth.resolve({ apiKeyHash: key.keyHash, projectKey: 'beta' })).rejects.toMatchObject({ code: ErrorCode.InvalidProjectKey });
  });

  it('records a use when none is recorded or the last is a minute old, and not more often', async () => {
    const never = await stored({ lastUsedAt: null });
    const recent = await stored({ lastUsedAt: NOW - LAST_USED_PRECISION_MS + 1000 });
    const old = await stored({ lastUsedAt: NOW - LAST_USED_PRECISION_MS - 1 });

    for (const key of [never, recent, old]) await auth.resolve({ apiKeyHash: key.keyHash });

    expect(await lastUsedOf(never.id, NOW)).toBe(NOW);
    expect(await lastUsedOf(old.id, NOW)).toBe(NOW);
    expect(await lastUsedOf(recent.id, recent.lastUsedAt)).toBe(recent.lastUsedAt);
  });

  it('writes one use between resolves that race each other (replicas), whatever they read', async () => {
    const key = await stored({ lastUsedAt: null });
    // Every resolve reads before any write runs, as replicas answering at once would: on a
    // loaded machine the first write could otherwise land before the others read, and no race happen.
    const execute = UpdateQueryBuilder.prototype.execute;
    let readsDone!: () => void;
    const allRead = new Promise<void>((resolve) => (readsDone = resolve));
    const updates = jest.spyOn(UpdateQueryBuilder.prototype, 'execute').mockImplementation(async function (this: UpdateQueryBuilder<ApiKey>) {
      await allRead;
      return execute.call(this);
    });

    await Promise.all(Array.from({ length: 5 }, () => authWith([]).resolve({ apiKeyHash: key.keyHash })));
    readsDone();
    expect(await lastUsedOf(key.id, NOW)).toBe(NOW);

    const written = await Promise.all(updates.mock.results.map((result) => result.value as Promise<UpdateResult>));
    expect(written).toHaveLength(5);
    expect(written.filter((result) => result.affected)).toHaveLength(1);
  });
});
