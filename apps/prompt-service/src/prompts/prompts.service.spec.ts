import { ErrorCode, type CreatePromptInput, type DomainError, type ProjectContext } from '@cinetrace/contracts';
import { aProjectContext, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { promptServiceStore } from '../prompt-service.module';
import type { GateEvidenceReader } from '../releases/gate-evidence';
import { ReleasesService } from '../releases/releases.service';
import { PromptReadsService } from './prompt-reads.service';
import { PromptsService } from './prompts.service';

const aPrompt = (overrides: Partial<CreatePromptInput> = {}): CreatePromptInput => ({
  name: 'Intro shot',
  content: 'A {{subject}} walking at dawn',
  type: 'text-to-video',
  ...overrides,
});

// prompt-service's writes on both of its stores: identifiers, versions, If-Match.
describe.each(TEST_STORES)('PromptsService on %s', (kind) => {
  let store: TestStore;
  let prompts: PromptsService;
  let reads: PromptReadsService;
  let releases: ReleasesService;
  let project = 0;
  /** Each test in a project of its own, so identifiers never collide across tests. */
  let ctx: ProjectContext;

  beforeAll(async () => {
    store = await openTestStore(kind, promptServiceStore);
    const { dataSource } = store;
    prompts = new PromptsService(dataSource);
    reads = new PromptReadsService(dataSource);
    // The evidence, faked: every version passed a whole run of the gate's benchmark.
    const passingRuns = {
      ofPrompt: async () => ({
        scorers: ['exact'],
        dataset: { id: 'ds_1', version: 1 },
        runs: [{ id: 'run_1', datasetVersion: 1, items: 4, datasetItems: 4, finishedAt: null, scores: { exact: { mean: 1, passRate: 1 } } }],
        uncounted: null,
      }),
    } as unknown as GateEvidenceReader;
    releases = new ReleasesService(dataSource, passingRuns);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(() => {
    ctx = aProjectContext(`prj_${++project}`);
  });

  describe('identifiers', () => {
    it('derives one from the name, then -2, -3 for the same name', async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await prompts.create(ctx, aPrompt({ name: 'Vidéo Intro / Shot!' })));
      expect(made.map((p) => p.identifier)).toEqual(['video-intro-shot', 'video-intro-shot-2', 'video-intro-shot-3']);
    });

    it('derives distinct ones for creates that race each other', async () => {
      const made = await Promise.all(Array.from({ length: 6 }, () => prompts.create(ctx, aPrompt({ name: 'Race' }))));
      expect(made.map((p) => p.identifier).sort()).toEqual(['race', 'race-2', 'race-3', 'race-4', 'race-5', 'race-6']);
    });

    it('refuses an explicit identifier a live prompt holds, with conflict', async () => {
      await prompts.create(ctx, aPrompt({ identifier: 'opening' }));
      await expect(prompts.create(ctx, aPrompt({ identifier: 'opening' }))).rejects.toMatchObject({
        code: ErrorCode.Conflict,
        detail: "A prompt with identifier 'opening' already exists in this project",
      });
    });

    it('frees an identifier when its prompt is deleted, and keeps projects apart', async () => {
      const first = await prompts.create(ctx, aPrompt({ name: 'Outro' }));
      await prompts.create(ctx, aPrompt({ name: 'Outro' }));
      await prompts.delete(ctx, first.id);

      expect((await prompts.create(ctx, aPrompt({ name: 'Outro' }))).identifier).toBe('outro');
      expect((await prompts.create(aProjectContext('prj_elsewhere'), aPrompt({ name: 'Outro' }))).identifier).toBe('outro');
    });

    it('falls back to "prompt" for a name without letters or digits', async () => {
      expect((await prompts.create(ctx, aPrompt({ name: '¿¡ / !?' }))).identifier).toBe('prompt');
    });
  });

  describe('versions', () => {
    it('numbers each change and keeps every version readable', async () => {
      const created = await prompts.create(ctx, aPrompt());
      const updated = await prompts.update(ctx, created.id, { content: 'A {{subject}} running at {{time}}' }, [1]);

      expect(created.version).toBe(1);
      expect(updated).toMatchObject({ version: 2, content: 'A {{subject}} running at {{time}}', variables: ['subject', 'time'] });
      expect(await reads.get({ ctx, id: created.id, version: 1 })).toMatchObject({ version: 1, content: aPrompt().content, variables: ['subject'] });
      const history = await reads.versionsOf(ctx, created.id, { limit: 10 });
      expect(history.items.map((v) => v.version)).toEqual([2, 1]);
    });

    it('refuses a stale If-Match with precondition_failed, naming the current version, and changes nothing', async () => {
      const { id } = await prompts.create(ctx, aPrompt());
      await prompts.update(ctx, id, { name: 'Second' }, [1]);

      await expect(prompts.update(ctx, id, { name: 'Third' }, [1])).rejects.toMatchObject({
        code: ErrorCode.PreconditionFailed,
        detail: `Prompt '${id}' is at version 2; If-Match named "1"`,
      });
      expect(await reads.get({ ctx, id })).toMatchObject({ version: 2, name: 'Second' });
    });

    it('accepts If-Match naming any of several versions when one is current', async () => {
      const { id } = await prompts.create(ctx, aPrompt());
      expect(await prompts.update(ctx, id, { name: 'Next' }, [7, 1])).toMatchObject({ version: 2 });
    });

    it('lets one of two writers with the same If-Match win: the other gets precondition_failed', async () => {
      const { id } = await prompts.create(ctx, aPrompt());
      const outcomes = await Promise.allSettled([prompts.update(ctx, id, { name: 'Left' }, [1]), prompts.update(ctx, id, { name: 'Right' }, [1])]);

      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((o) => (o.reason as DomainError).code)).toEqual([ErrorCode.PreconditionFailed]);
      const history = await reads.versionsOf(ctx, id, { limit: 10 });
      expect(history.items.map((v) => v.version)).toEqual([2, 1]);
    });

    it('loses no update of writers without If-Match: each lands as its own version', async () => {
      const { id } = await prompts.create(ctx, aPrompt({ metadata: {} }));
      await Promise.all([prompts.update(ctx, id, { name: 'Renamed' }), prompts.update(ctx, id, { content: 'Changed {{x}}' }), prompts.update(ctx, id, { labels: ['prod'] })]);

      expect(await reads.get({ ctx, id })).toMatchObject({ version: 4, name: 'Renamed', content: 'Changed {{x}}', labels: ['prod'] });
      const history = await reads.versionsOf(ctx, id, { limit: 10 });
      expect(history.items.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    });

    it('makes no version of an update that changes nothing', async () => {
      const created = await prompts.create(ctx, aPrompt());
      expect(await prompts.update(ctx, created.id, { name: created.name, content: created.content })).toMatchObject({ version: 1 });
      const activity = await reads.activityOf(ctx, created.id, { limit: 10 });
      expect(activity.items.map((a) => a.action)).toEqual(['created']);
    });
  });

  describe('delete', () => {
    it('refuses a stale If-Match, then deletes: the prompt is gone for updates and its activity says so', async () => {
      const { id } = await prompts.create(ctx, aPrompt());
      await prompts.update(ctx, id, { name: 'Second' });

      await expect(prompts.delete(ctx, id, [1])).rejects.toMatchObject({ code: ErrorCode.PreconditionFailed });
      expect(await prompts.delete(ctx, id, [2])).toMatchObject({ id, deleted: true });
      await expect(prompts.update(ctx, id, { name: 'Too late' })).rejects.toMatchObject({ code: ErrorCode.NotFound });
      await expect(prompts.delete(ctx, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
      const activity = await reads.activityOf(ctx, id, { limit: 10 });
      expect(activity.items.map((a) => [a.action, a.version])).toEqual([
        ['deleted', 2],
        ['updated', 2],
        ['created', 1],
      ]);
    });

    describe('of a prompt with a gated release', () => {
      const gate = { benchmarkId: 'bm_1', thresholds: { exact: 0.5 } };
      async function gatedPrompt(identifier: string) {
        const prompt = await prompts.create(ctx, aPrompt({ identifier }));
        await releases.move({ ctx, id: prompt.id, name: 'production', input: { version: 1, gate }, mayChangeGate: true });
        return prompt;
      }

      it('needs admin, and leaves the prompt as it was without it', async () => {
        const { id } = await gatedPrompt('gated-opening');
        await expect(prompts.delete(ctx, id)).rejects.toMatchObject({
          code: ErrorCode.InsufficientScope,
          detail: `Prompt '${id}' has a gated release ('production'); deleting it needs an API key with the 'admin' scope`,
        });
        expect(await reads.get({ ctx, identifier: 'gated-opening', release: 'production' })).toMatchObject({ id, version: 1 });
        expect(await prompts.delete(ctx, id, undefined, true)).toMatchObject({ id, deleted: true });
      });

      it("reserves the identifier to admin keys, until an admin's prompt without a gate holds it", async () => {
        const gated = await gatedPrompt('closing');
        await prompts.delete(ctx, gated.id, undefined, true);
        await expect(prompts.create(ctx, aPrompt({ identifier: 'closing' }))).rejects.toMatchObject({
          code: ErrorCode.InsufficientScope,
          errors: [{ path: 'identifier', message: 'is reserved by the gated releases of the deleted prompt that held it' }],
        });
        await expect(reads.get({ ctx, identifier: 'closing' })).rejects.toMatchObject({ code: ErrorCode.NotFound });
        // Derived from the name, it is skipped whoever asks.
        expect((await prompts.create(ctx, aPrompt({ name: 'Closing' }))).identifier).toBe('closing-2');

        const adopted = await prompts.create(ctx, aPrompt({ identifier: 'closing' }), true);
        await prompts.delete(ctx, adopted.id);
        expect((await prompts.create(ctx, aPrompt({ identifier: 'closing' }))).identifier).toBe('closing');
      });

      it('does not reserve an identifier whose prompt had releases without a gate', async () => {
        const plain = await prompts.create(ctx, aPrompt({ identifier: 'plain' }));
        await releases.move({ ctx, id: plain.id, name: 'production', input: { version: 1 }, mayChangeGate: false });
        await prompts.delete(ctx, plain.id);
        expect((await prompts.create(ctx, aPrompt({ identifier: 'plain' }))).identifier).toBe('plain');
      });
    });

    it("never touches another project's prompt", async () => {
      const { id } = await prompts.create(ctx, aPrompt());
      const stranger = aProjectContext('prj_stranger');
      await expect(prompts.update(stranger, id, { name: 'Hijacked' })).rejects.toMatchObject({ code: ErrorCode.NotFound });
      await expect(prompts.delete(stranger, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
      expect(await reads.get({ ctx, id })).toMatchObject({ name: 'Intro shot', version: 1 });
    });
  });
});
