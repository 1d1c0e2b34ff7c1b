import { compileInThisThread } from '@cinetrace/scorers';
import { expect } from '@jest/globals';
import {
  DomainError,
  ErrorCode,
  Patterns,
  type FieldError,
  type PromptGetRequest,
  type ProjectContext,
  type PageRequest,
  type SecretReferencesRecordRequest,
  type SecretUsesCheckRequest,
} from '@cinetrace/contracts';
import { aProjectContext, allPages, domainErrorOf, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { aBenchmarkInput, aBenchmarkServiceEnv, aDatasetInput, aFakeBus, anIdleFactRelay, RecordingTaskQueue, sendAllFacts } from '../benchmark-service.fixtures';
import type { FactRelay } from '../facts/fact-relay';
import type { BenchmarkServiceEnv } from '../benchmark-service.env';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { DatasetsService } from '../datasets/datasets.service';
import { BenchmarksService } from './benchmarks.service';

const PROMPT_ID = `prm_${'0'.repeat(26)}`;
const OTHER_PROMPT_ID = `prm_${'1'.repeat(26)}`;

/** prompt-service, faked: PROMPT_ID has versions 1 and 2, and a release `staging` at 1; no other prompt exists. */
function aPromptService(request: unknown) {
  const { id, version, release } = request as PromptGetRequest;
  const at = release === 'staging' ? 1 : release === undefined || release === 'latest' ? (version ?? 2) : null;
  if (id !== PROMPT_ID || at === null || at > 2) throw DomainError.notFound(`No such prompt, version or release`);
  return { id, version: at, content: `take ${at} of {{subject}}` };
}

// benchmark-service's benchmarks on both of its stores: one answer for every invalid field, secrets, paging, deletes.
describe.each(TEST_STORES)('BenchmarksService on %s', (kind) => {
  let store: TestStore;
  let datasets: DatasetsService;
  let projects = 0;
  let ctx: ProjectContext;
  let datasetId: string;
  /** What project-service says of the secrets a benchmark names (nothing wrong, unless a test says otherwise). */
  let secretErrors: FieldError[];
  /** What the service asked over the bus. */
  let busRequests: Array<{ pattern: string; request: unknown }>;

  const benchmarksWith = (env: Partial<BenchmarkServiceEnv> = {}) => {
    const fake = aFakeBus({
      [Patterns.SecretUsesCheck]: () => ({ errors: secretErrors }),
      [Patterns.PromptGet]: aPromptService,
      [Patterns.EvaluationsRecord]: () => ({ taken: 0 }),
      [Patterns.SecretReferencesRecord]: () => ({ taken: 0 }),
    });
    busRequests = fake.requests;
    facts = anIdleFactRelay(store.dataSource, fake.bus);
    return new BenchmarksService(store.dataSource, aBenchmarkServiceEnv(env), new RecordingTaskQueue(), fake.bus, compileInThisThread, facts);
  };
  let benchmarks: BenchmarksService;
  /** Its relay of facts, never started: a test sends them itself. */
  let facts: FactRelay;

  beforeAll(async () => {
    store = await openTestStore(kind, benchmarkServiceStore);
    datasets = new DatasetsService(store.dataSource, anIdleFactRelay(store.dataSource));
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(async () => {
    ctx = aProjectContext(`prj_${++projects}`);
    datasetId = (await datasets.create(ctx, aDatasetInput())).id;
    secretErrors = [];
    benchmarks = benchmarksWith();
  });

  it('creates an idle benchmark with the runner defaults filled in', async () => {
    const created = await benchmarks.create(ctx, aBenchmarkInput(datasetId, { runner: { concurrency: 2 } }));
    expect(created).toMatchObject({ status: 'idle', lastRun: null, datasetId, runner: { concurrency: 2, maxAttempts: 3, timeoutMs: 60_000 } });
    expect(await benchmarks.get(ctx, created.id)).toEqual(created);
  });

  it('names every offending field in one validation_failed answer, and stores nothing', async () => {
    const invalid = aBenchmarkInput('ds_nowhere', {
      target: { type: 'http', url: 'http://127.0.0.1:8080/generate' },
      scorers: [{ type: 'exact_match' }, { type: 'psychic' }],
      runner: { concurrency: 0 },
    });
    const refusal = await domainErrorOf(benchmarks.create(ctx, invalid));

    expect(refusal).toMatchObject({ code: ErrorCode.ValidationFailed, detail: 'The benchmark is not valid' });
    expect(refusal.errors?.map((e) => e.path).sort()).toEqual(['datasetId', 'runner.concurrency', 'scorers[1].type', 'target.url']);
    expect((await benchmarks.list(ctx, {}, { limit: 10 })).items).toEqual([]);
  });

  it('lets targets call private addresses only with OUTBOUND_ALLOW_PRIVATE', async () => {
    const local = aBenchmarkInput(datasetId, { target: { type: 'http', url: 'http://127.0.0.1:8080/generate' } });
    await expect(benchmarks.create(ctx, local)).rejects.toMatchObject({ code: ErrorCode.ValidationFailed });
    expect(await benchmarksWith({ OUTBOUND_ALLOW_PRIVATE: true }).create(ctx, local)).toMatchObject({ target: { url: 'http://127.0.0.1:8080/generate' } });
  });

  /** What project-service was told of the benchmark's secrets, in order. */
  const referencesToldOf = (benchmarkId: string) =>
    busRequests
      .filter(({ pattern }) => pattern === Patterns.SecretReferencesRecord)
      .flatMap(({ request }) => (request as SecretReferencesRecordRequest).benchmarks.filter((b) => b.benchmarkId === benchmarkId));

  describe('secrets', () => {
    const withSecret = () => aBenchmarkInput(datasetId, { target: { type: 'http', url: 'https://models.example.com/v1/generate', apiKey: { secret: 'MODEL_KEY' } } });

    it('asks project-service about each secret named, then tells it the benchmark names the secret, and that it no longer does once deleted', async () => {
      const created = await benchmarks.create(ctx, withSecret());

      const check: SecretUsesCheckRequest = { ctx, uses: [{ path: 'target.apiKey', name: 'MODEL_KEY', origin: 'https://models.example.com:443' }] };
      expect(busRequests).toEqual([{ pattern: Patterns.SecretUsesCheck, request: check }]);
      await sendAllFacts(facts);
      expect(referencesToldOf(created.id)).toEqual([{ benchmarkId: created.id, orgId: ctx.orgId, names: ['MODEL_KEY'], deleted: false }]);

      await benchmarks.delete(ctx, created.id);
      await sendAllFacts(facts);
      expect(referencesToldOf(created.id).at(-1)).toEqual({ benchmarkId: created.id, orgId: ctx.orgId, names: ['MODEL_KEY'], deleted: true });
    });

    it('tells project-service nothing of a benchmark that names no secret', async () => {
      const created = await benchmarks.create(ctx, aBenchmarkInput(datasetId));
      await sendAllFacts(facts);
      expect(referencesToldOf(created.id)).toEqual([]);
      expect(busRequests.some(({ pattern }) => pattern === Patterns.EvaluationsRecord)).toBe(true);
    });

    it('refuses a secret project-service refuses, with its reasons, and records nothing', async () => {
      secretErrors = [{ path: 'target.apiKey', message: "names no secret of this organization ('MODEL_KEY')" }];
      await expect(benchmarks.create(ctx, withSecret())).rejects.toMatchObject({ code: ErrorCode.ValidationFailed, errors: secretErrors });
      expect((await benchmarks.list(ctx, {}, { limit: 10 })).items).toEqual([]);
    });
  });

  describe("a target's prompt", () => {
    const target = (fields: Record<string, unknown>) => aBenchmarkInput(datasetId, { target: { type: 'dataset', promptId: PROMPT_ID, ...fields } });

    it('is checked at create: a release, version or prompt prompt-service does not have is refused on its field, and nothing is stored', async () => {
      for (const [fields, path, message] of [
        [{ promptRelease: 'canary' }, 'target.promptRelease', "names no release of the prompt ('canary')"],
        [{ promptVersion: 3 }, 'target.promptVersion', 'names no version of the prompt (its newest is 2)'],
        [{ promptId: OTHER_PROMPT_ID, promptRelease: 'staging' }, 'target.promptId', `names no prompt of this project ('${OTHER_PROMPT_ID}')`],
        [{ promptId: OTHER_PROMPT_ID }, 'target.promptId', `names no prompt of this project ('${OTHER_PROMPT_ID}')`],
      ] as const) {
        const refusal = await domainErrorOf(benchmarks.create(ctx, target(fields)));
        expect([refusal.code, refusal.errors]).toEqual([ErrorCode.ValidationFailed, [{ path, message }]]);
      }
      expect((await benchmarks.list(ctx, {}, { limit: 10 })).items).toEqual([]);
    });

    it('is created when it names a release, a version or the prompt alone that prompt-service has', async () => {
      for (const fields of [{ promptRelease: 'staging' }, { promptRelease: 'latest' }, { promptVersion: 1 }, {}]) {
        expect(await benchmarks.create(ctx, target(fields))).toMatchObject({ target: { promptId: PROMPT_ID, ...fields } });
      }
      expect(busRequests.filter((r) => r.pattern === Patterns.PromptGet).map((r) => r.request)).toEqual([
        { ctx, id: PROMPT_ID, release: 'staging' },
        { ctx, id: PROMPT_ID, release: 'latest' },
        { ctx, id: PROMPT_ID, version: 1 },
        { ctx, id: PROMPT_ID },
      ]);
    });
  });

  describe('lists', () => {
    it('pages newest first by keyset, each benchmark once, and filters by status', async () => {
      for (let i = 0; i < 5; i++) await benchmarks.create(ctx, aBenchmarkInput(datasetId, { name: `B${i}` }));
      const gone = await benchmarks.create(ctx, aBenchmarkInput(datasetId, { name: 'Deleted' }));
      await benchmarks.delete(ctx, gone.id);

      const pages = await allPages((page: PageRequest<string>) => benchmarks.list(ctx, {}, page), 2);
      expect(pages.flat().map((b) => b.name)).toEqual(['B4', 'B3', 'B2', 'B1', 'B0']);
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      expect((await benchmarks.list(ctx, { status: 'running' }, { limit: 10 })).items).toEqual([]);
      expect((await benchmarks.list(ctx, { status: 'idle' }, { limit: 10 })).items).toHaveLength(5);
    });

    it('refuses an unknown status with validation_failed', async () => {
      await expect(benchmarks.list(ctx, { status: 'sleeping' }, { limit: 10 })).rejects.toMatchObject({
        code: ErrorCode.ValidationFailed,
        errors: [{ path: 'status', message: expect.stringContaining('must be one of: idle, queued, running') }],
      });
    });
  });

  it("reads and deletes only the caller's project's live benchmarks", async () => {
    const { id } = await benchmarks.create(ctx, aBenchmarkInput(datasetId));
    const stranger = aProjectContext('prj_stranger');
    await expect(benchmarks.get(stranger, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(benchmarks.delete(stranger, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });

    expect(await benchmarks.delete(ctx, id)).toEqual({ id, deleted: true });
    await expect(benchmarks.get(ctx, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await expect(benchmarks.delete(ctx, id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});
