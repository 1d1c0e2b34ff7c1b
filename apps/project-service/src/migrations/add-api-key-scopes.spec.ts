import { openServiceDataSource } from '@cinetrace/persistence';
import { createTestStoreEnv, TEST_STORES, type TestStoreEnv } from '@cinetrace/testing';
import { ApiKey } from '../store/api-key.entity';
import type { ProjectServiceEnv } from '../project-service.env';
import { projectServiceStore } from '../project-service.module';
import { CreateOrganizationsAndProjects1763791200000 } from './1763791200000-CreateOrganizationsAndProjects';

// An installation made before API keys had scopes holds one bootstrap key: after the
// migration it must still work, as the admin and instance admin it always was.
describe.each(TEST_STORES)('AddApiKeyScopes on %s', (kind) => {
  let place: TestStoreEnv;
  let env: ProjectServiceEnv;

  beforeAll(async () => {
    place = await createTestStoreEnv(kind);
    env = place.env as ProjectServiceEnv;
  }, 60_000);

  afterAll(async () => {
    await place?.remove();
  });

  it('turns the keys already stored into admin instance admins, and stores new keys with their scopes', async () => {
    const before = await openServiceDataSource({ ...projectServiceStore(env), entities: [], migrations: [CreateOrganizationsAndProjects1763791200000] }, 1);
    await before.query("INSERT INTO organizations (id, slug, name, created_at) VALUES ('org_1', 'default', 'Default', 1)");
    await before.query(`INSERT INTO api_keys (id, org_id, name, key_hash, preview, created_at) VALUES ('key_old', 'org_1', 'Bootstrap key', '${'a'.repeat(64)}', 'ct_abcd…', 1)`);
    await before.destroy();

    const after = await openServiceDataSource(projectServiceStore(env), 1);
    try {
      const keys = after.getRepository(ApiKey);
      expect(await keys.findOneByOrFail({ id: 'key_old' })).toMatchObject({
        scopes: ['admin'],
        projectIds: null,
        instanceAdmin: true,
        lastUsedAt: null,
        revokedAt: null,
      });
      await keys.insert({
        id: 'key_new',
        orgId: 'org_1',
        name: 'CI',
        keyHash: 'b'.repeat(64),
        preview: 'ct_bbbb…',
        scopes: ['read', 'ingest'],
        projectIds: ['prj_1'],
        instanceAdmin: false,
        createdAt: 2,
        lastUsedAt: 3,
        revokedAt: null,
      });
      expect(await keys.findOneByOrFail({ id: 'key_new' })).toMatchObject({
        scopes: ['read', 'ingest'],
        projectIds: ['prj_1'],
        instanceAdmin: false,
        lastUsedAt: 3,
      });
    } finally {
      await after.destroy();
    }
  });
});
