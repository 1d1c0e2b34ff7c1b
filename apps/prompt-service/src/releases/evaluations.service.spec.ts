import { ErrorCode, type EvaluationRunFact, type GateBenchmarkFact, type ProjectContext } from '@cinetrace/contracts';
import { aProjectContext, domainErrorOf, openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { promptServiceStore } from '../prompt-service.module';
import { PromptsService } from '../prompts/prompts.service';
import { EvaluationsService } from './evaluations.service';
import { GateEvidenceReader } from './gate-evidence';
import { ReleasesService } from './releases.service';

// What benchmark-service tells of its benchmarks and runs, kept on both of prompt-service's
// stores and judged from there: told twice or out of order, it counts as told once.
describe.each(TEST_STORES)('EvaluationsService on %s', (kind) => {
  let store: TestStore;
  let evaluations: EvaluationsService;
  let evidence: GateEvidenceReader;
  let prompts: PromptsService;
  let releases: ReleasesService;
  let project = 0;
  let ctx: ProjectContext;
  let promptId: string;

  beforeAll(async () => {
    store = await openTestStore(kind, promptServiceStore);
    evaluations = new EvaluationsService(store.dataSource);
    evidence = new GateEvidenceReader(store.dataSource);
    prompts = new PromptsService(store.dataSource);
    releases = new ReleasesService(store.dataSource, evidence);
  }, 60_000);
  afterAll(() => store?.close());
  beforeEach(async () => {
    ctx = aProjectContext(`prj_${++project}`);
    promptId = (await prompts.create(ctx, { name: 'Intro shot', content: 'take 1', type: 'text-to-video' })).id;
  });

  const benchmark = (overrides: Partial<GateBenchmarkFact> = {}): GateBenchmarkFact => ({
    id: `bm_${project}`,
    projectId: ctx.projectId,
    scorers: ['exact'],
    datasetId: `ds_${project}`,
    datasetVersion: 1,
    deleted: false,
    ...overrides,
  });
  /** Run ids are the store's keys: each test's its own. */
  const runId = (name: string) => `${name}_${project}`;
  const run = (name: string, overrides: Partial<EvaluationRunFact> = {}): EvaluationRunFact => ({
    id: runId(name),
    projectId: ctx.projectId,
    benchmarkId: `bm_${project}`,
    promptId,
    promptVersion: 1,
    datasetId: `ds_${project}`,
    datasetVersion: 1,
    items: 4,
    datasetItems: 4,
    finishedAt: 1_700_000_000_000,
    scores: { exact: { mean: 0.9, passRate: 0.9 } },
    ...overrides,
  });
  const gated = (thresholds: Record<string, number> = { exact: 0.5 }) =>
    releases.move({ ctx, id: promptId, name: 'production', input: { version: 1, gate: { benchmarkId: `bm_${project}`, thresholds } }, mayChangeGate: true });

  it('judges a gate by the runs it was told of: a passing whole run lets the release move', async () => {
    await evaluations.record({ benchmarks: [benchmark()], runs: [run('run_1')] });
    expect(await gated()).toMatchObject({ version: 1, gate: { benchmarkId: `bm_${project}`, datasetVersion: 1 } });
  });

  it('refuses the move until the run is told (a run completed a moment ago may not be yet)', async () => {
    await evaluations.record({ benchmarks: [benchmark()], runs: [] });
    expect(await domainErrorOf(gated())).toMatchObject({ code: ErrorCode.GateFailed });
    await evaluations.record({ benchmarks: [], runs: [run('run_1')] });
    expect(await gated()).toMatchObject({ version: 1 });
  });

  it('counts a run told twice once, and keeps its first telling', async () => {
    await evaluations.record({ benchmarks: [benchmark()], runs: [run('run_1')] });
    await evaluations.record({ benchmarks: [benchmark()], runs: [run('run_1', { scores: { exact: { mean: 0.1, passRate: 0.1 } } })] });
    const found = await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1);
    expect(found?.runs).toEqual([expect.objectContaining({ id: runId('run_1'), scores: { exact: { mean: 0.9, passRate: 0.9 } } })]);
  });

  it('answers the newest run that did not count, and never counts a subset', async () => {
    await evaluations.record({ benchmarks: [benchmark()], runs: [run('run_1', { items: 2 }), run('run_2', { datasetVersion: 2, datasetItems: 6, items: 6 })] });
    expect(await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1)).toEqual({
      scorers: ['exact'],
      dataset: { id: `ds_${project}`, version: 1 },
      runs: [],
      uncounted: { id: runId('run_2'), datasetVersion: 2, items: 6, datasetItems: 6 },
    });
  });

  it('keeps the furthest state of a benchmark whatever order its facts arrive in: a deletion is final', async () => {
    await evaluations.record({ benchmarks: [benchmark({ datasetVersion: 3 })], runs: [] });
    await evaluations.record({ benchmarks: [benchmark({ datasetVersion: 2 })], runs: [] });
    expect((await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1))?.dataset).toEqual({ id: `ds_${project}`, version: 3 });

    await evaluations.record({ benchmarks: [benchmark({ datasetVersion: 3, deleted: true })], runs: [] });
    await evaluations.record({ benchmarks: [benchmark({ datasetVersion: 4 })], runs: [] });
    expect(await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1)).toBeNull();
  });

  it('knows no benchmark of another project, and refuses a gate on it as benchmark-service did', async () => {
    await evaluations.record({ benchmarks: [benchmark({ projectId: 'prj_other' })], runs: [run('run_1', { projectId: 'prj_other' })] });
    expect(await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1)).toBeNull();
    expect(await domainErrorOf(gated())).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'gate.benchmarkId', message: 'is not a benchmark of this project' }] });
  });

  it('refuses a malformed batch whole, naming the fact, and keeps nothing of it', async () => {
    const refusal = await domainErrorOf(evaluations.record({ benchmarks: [benchmark()], runs: [run('run_1'), { id: 'run_2' } as EvaluationRunFact] }));
    expect(refusal).toMatchObject({ code: ErrorCode.ValidationFailed, errors: [{ path: 'runs[1]' }] });
    expect(await evidence.ofPrompt(ctx, `bm_${project}`, promptId, 1)).toBeNull();
  });
});
