import { ErrorCode, type OrgContext, type PageRequest } from '@cinetrace/contracts';
import { allPages, anOrgContext, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { Organization } from '../store/organization.entity';
import { projectServiceStore } from '../project-service.module';
import { ProjectsService } from './projects.service';

// project-service's projects on both of its stores: derived keys, paging, restricted keys.
describe.each(TEST_STORES)('ProjectsService on %s', (kind) => {
  let store: TestStore;
  let projects: ProjectsService;
  let orgs = 0;
  /** Each test in an organization of its own: keys are unique per organization. */
  let ctx: OrgContext;

  const newOrganization = async (): Promise<OrgContext> => {
    const orgId = `org_${++orgs}`;
    await store.dataSource.getRepository(Organization).insert({ id: orgId, slug: orgId, name: orgId, createdAt: 1 });
    return anOrgContext(orgId);
  };

  beforeAll(async () => {
    store = await openTestStore(kind, projectServiceStore);
    projects = new ProjectsService(store.dataSource);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(async () => {
    ctx = await newOrganization();
  });

  describe('keys', () => {
    it('derives one from the name, then -2, -3 for the same name', async () => {
      const keys = [];
      for (let i = 0; i < 3; i++) keys.push((await projects.create(ctx, { name: 'Video Gen / Prod' })).key);
      expect(keys).toEqual(['video-gen-prod', 'video-gen-prod-2', 'video-gen-prod-3']);
    });

    it('derives distinct ones for creates that race each other', async () => {
      const made = await Promise.all(Array.from({ length: 5 }, () => projects.create(ctx, { name: 'Nightly' })));
      expect(made.map((p) => p.key).sort()).toEqual(['nightly', 'nightly-2', 'nightly-3', 'nightly-4', 'nightly-5']);
    });

    it('makes a key that starts with a letter of a name that does not', async () => {
      expect((await projects.create(ctx, { name: '2025 renders' })).key).toBe('project-2025-renders');
    });

    it('refuses an explicit key taken in the organization with conflict, and allows it in another', async () => {
      await projects.create(ctx, { name: 'One', key: 'shared-key' });
      await expect(projects.create(ctx, { name: 'Two', key: 'shared-key' })).rejects.toMatchObject({
        code: ErrorCode.Conflict,
        detail: "The project key 'shared-key' is already taken in this organization",
      });
      expect((await projects.create(await newOrganization(), { name: 'Three', key: 'shared-key' })).key).toBe('shared-key');
    });
  });

  describe('lists', () => {
    it('pages newest first by keyset, every project once, no gap between pages', async () => {
      const made = [];
      for (let i = 0; i < 7; i++) made.push(await projects.create(ctx, { name: `P${i}` }));
      await projects.create(await newOrganization(), { name: 'Elsewhere' });

      const pages = await allPages((page: PageRequest<string>) => projects.list(ctx, {}, page), 3);

      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(pages.flat().map((p) => p.name)).toEqual(['P6', 'P5', 'P4', 'P3', 'P2', 'P1', 'P0']);
    });

    it('ends with no next key when the last page is exactly full', async () => {
      for (let i = 0; i < 4; i++) await projects.create(ctx, { name: `Q${i}` });
      const pages = await allPages((page: PageRequest<string>) => projects.list(ctx, {}, page), 2);
      expect(pages.map((page) => page.length)).toEqual([2, 2]);
    });

    it('filters by name', async () => {
      await projects.create(ctx, { name: 'Alpha' });
      await projects.create(ctx, { name: 'Beta' });
      const { items } = await projects.list(ctx, { name: 'Beta' }, { limit: 10 });
      expect(items.map((p) => p.name)).toEqual(['Beta']);
    });
  });

  describe('a key restricted to some projects', () => {
    it('lists and gets only those, and reads the others as not found', async () => {
      const [shown, hidden] = [await projects.create(ctx, { name: 'Shown' }), await projects.create(ctx, { name: 'Hidden' })];
      const restricted = { ...ctx, projectIds: [shown.id] };

      expect((await projects.list(restricted, {}, { limit: 10 })).items.map((p) => p.id)).toEqual([shown.id]);
      expect(await projects.get(restricted, shown.id)).toMatchObject({ id: shown.id, name: 'Shown' });
      await expect(projects.get(restricted, hidden.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    });
  });

  it("reads another organization's project as not found", async () => {
    const theirs = await projects.create(await newOrganization(), { name: 'Theirs' });
    await expect(projects.get(ctx, theirs.id)).rejects.toMatchObject({ code: ErrorCode.NotFound, detail: `No project with id '${theirs.id}'` });
  });
});
