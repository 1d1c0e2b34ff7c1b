import { ErrorCode, type ProjectContext } from '@cinetrace/contracts';
import { aProjectContext, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { promptServiceStore } from '../prompt-service.module';
import { PromptsService } from '../prompts/prompts.service';
import { ReleasesService } from './releases.service';

// A gate judges moves: adding one where a release stands keeps the version it points at, and
// only an admin may add it; the next move is judged.
describe.each(TEST_STORES)('ReleasesService gates on %s', (kind) => {
  let store: TestStore;
  let prompts: PromptsService;
  let releases: ReleasesService;
  let project = 0;
  let ctx: ProjectContext;
  const gate = { benchmarkId: 'bm_1', thresholds: { exact: 0.5 } };

  beforeAll(async () => {
    store = await openTestStore(kind, promptServiceStore);
    prompts = new PromptsService(store.dataSource);
    // The gate's evidence, faked: the benchmark exists, and no version of the prompt was ever run.
    const neverRun = {
      ofPrompt: async () => ({ scorers: ['exact'], dataset: { id: 'ds_1', version: 3 }, runs: [], uncounted: null }),
    } as unknown as ConstructorParameters<typeof ReleasesService>[1];
    releases = new ReleasesService(store.dataSource, neverRun);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++project}`);
  });

  /** A prompt with versions 1 and 2 whose `production` points at 1, ungated. */
  async function released() {
    const { id } = await prompts.create(ctx, { name: 'Intro shot', content: 'take 1', type: 'text-to-video' });
    await prompts.update(ctx, id, { content: 'take 2' });
    await releases.move({ ctx, id, name: 'production', input: { version: 1 }, mayChangeGate: false });
    return id;
  }
  const production = async (id: string) => (await releases.list(ctx, id)).data.find((r) => r.name === 'production');

  it('adds a gate where the release stands without judging that version, and judges the next move', async () => {
    const id = await released();
    const gated = await releases.move({ ctx, id, name: 'production', input: { version: 1, gate }, mayChangeGate: true });
    expect(gated).toMatchObject({ version: 1, gate: { ...gate, datasetVersion: 3 } });

    // Changing only the gate keeps the version too.
    const stricter = { ...gate, thresholds: { exact: 0.9 } };
    expect(await releases.move({ ctx, id, name: 'production', input: { version: 1, gate: stricter }, mayChangeGate: true })).toMatchObject({
      version: 1,
      gate: stricter,
    });
    await expect(releases.move({ ctx, id, name: 'production', input: { version: 2 }, mayChangeGate: false })).rejects.toMatchObject({ code: ErrorCode.GateFailed });
    expect(await production(id)).toMatchObject({ version: 1 });
  });

  it('judges a gate set in the same call as a move, and refuses a gate from a key without admin', async () => {
    const id = await released();
    await expect(releases.move({ ctx, id, name: 'production', input: { version: 2, gate }, mayChangeGate: true })).rejects.toMatchObject({
      code: ErrorCode.GateFailed,
    });
    for (const version of [1, 2]) {
      await expect(releases.move({ ctx, id, name: 'production', input: { version, gate }, mayChangeGate: false })).rejects.toMatchObject({
        code: ErrorCode.InsufficientScope,
      });
    }
    expect(await production(id)).toMatchObject({ version: 1, gate: null });
    // A first move that creates a gated release is a move: judged.
    await expect(releases.move({ ctx, id, name: 'canary', input: { version: 1, gate }, mayChangeGate: true })).rejects.toMatchObject({
      code: ErrorCode.GateFailed,
    });
  });

  it('still checks a gate added where the release stands: an unknown scorer is a 400 naming it', async () => {
    const id = await released();
    await expect(
      releases.move({ ctx, id, name: 'production', input: { version: 1, gate: { benchmarkId: 'bm_1', thresholds: { bleu: 0.1 } } }, mayChangeGate: true }),
    ).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, errors: [expect.objectContaining({ path: 'gate.thresholds.bleu' })] });
    await expect(releases.move({ ctx, id, name: 'production', input: { version: 1, gate: { ...gate, datasetVersion: 4 } }, mayChangeGate: true })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
      errors: [expect.objectContaining({ path: 'gate.datasetVersion' })],
    });
    expect(await production(id)).toMatchObject({ version: 1, gate: null });
  });
});
