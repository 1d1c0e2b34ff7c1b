import { expect } from '@jest/globals';
import { ErrorCode, type BenchmarkSecretReferences } from '@cinetrace/contracts';
import { domainErrorOf, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { projectServiceStore } from '../project-service.module';
import { benchmarksNamingSecret } from '../store/secret-references.queries';
import { SecretReferencesService } from './secret-references.service';

// The secret names benchmark-service tells of, kept on both of project-service's stores: told
// twice, or in any order, a benchmark names what it named, until its deletion, which is final.
describe.each(TEST_STORES)('SecretReferencesService on %s', (kind) => {
  let store: TestStore;
  let references: SecretReferencesService;
  let org = 0;
  let orgId: string;

  beforeAll(async () => {
    store = await openTestStore(kind, projectServiceStore);
    references = new SecretReferencesService(store.dataSource);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    orgId = `org_refs_${++org}`;
  });

  const told = (benchmarkId: string, names: string[], deleted = false): BenchmarkSecretReferences => ({ benchmarkId: `${benchmarkId}_${org}`, orgId, names, deleted });
  const naming = (name: string) => benchmarksNamingSecret(store.dataSource.manager, orgId, name, 5);

  it("answers the live benchmarks of the organization that name a secret, newest first, and no other organization's", async () => {
    await references.record({ benchmarks: [told('bm_a', ['MODEL_KEY', 'JUDGE_KEY']), told('bm_b', ['MODEL_KEY'])] });
    expect(await naming('MODEL_KEY')).toEqual([`bm_b_${org}`, `bm_a_${org}`]);
    expect(await naming('JUDGE_KEY')).toEqual([`bm_a_${org}`]);
    expect(await benchmarksNamingSecret(store.dataSource.manager, 'org_elsewhere', 'MODEL_KEY', 5)).toEqual([]);
  });

  it('changes nothing when a benchmark is told again', async () => {
    const fact = told('bm_a', ['MODEL_KEY']);
    expect(await references.record({ benchmarks: [fact] })).toEqual({ taken: 1 });
    await references.record({ benchmarks: [fact, fact] });
    expect(await naming('MODEL_KEY')).toEqual([`bm_a_${org}`]);
  });

  it('forgets a deleted benchmark for good: its names told late bring nothing back', async () => {
    await references.record({ benchmarks: [told('bm_a', ['MODEL_KEY'])] });
    await references.record({ benchmarks: [told('bm_a', ['MODEL_KEY'], true)] });
    expect(await naming('MODEL_KEY')).toEqual([]);
    await references.record({ benchmarks: [told('bm_a', ['MODEL_KEY'])] });
    expect(await naming('MODEL_KEY')).toEqual([]);

    // Its deletion told before its creation: the same.
    await references.record({ benchmarks: [told('bm_b', ['MODEL_KEY'], true)] });
    await references.record({ benchmarks: [told('bm_b', ['MODEL_KEY'])] });
    expect(await naming('MODEL_KEY')).toEqual([]);
  });

  it('refuses a malformed batch whole, naming the fact, and keeps nothing of it', async () => {
    const refusal = await domainErrorOf(references.record({ benchmarks: [told('bm_a', ['MODEL_KEY']), { benchmarkId: 'bm_x' } as BenchmarkSecretReferences] }));
    expect(refusal).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'benchmarks[1]' }] });
    expect(await naming('MODEL_KEY')).toEqual([]);
  });
});
