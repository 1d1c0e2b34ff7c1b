import { expect } from '@jest/globals';
import type { Api, ApiResponse } from '@cinetrace/testing';
import { Answer, Schema } from './support/api-types';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk } from './support/benchmarks';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { inNewProject, keyWithScopes } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACES, TRACE_TEST_TIMEOUT_MS, aSpan, aTrace, anId, args, eventually, ingest, readNow } from './support/traces';

const SCORES = '/api/v1/scores';
const SCORE_CONFIGS = '/api/v1/score-configs';

type ScoreView = Schema<'ScoreView'>;
type ScoreConfigView = Schema<'ScoreConfigView'>;
type ScorePage = Answer<'listScores'>;
type TracePage = Answer<'listTraces'>;

const postScore = (api: Api, json: unknown): Promise<ApiResponse<ScoreView>> => api.post<ScoreView>(SCORES, json);
const createConfig = async (api: Api, json: unknown): Promise<ScoreConfigView> => {
  const response = await api.post<ScoreConfigView>(SCORE_CONFIGS, json);
  if (response.status !== 201) throw new Error(`score config create answered ${response.status}: ${response.text}`);
  return response.body;
};
const listScores = async (api: Api, query: Record<string, string | number> = {}): Promise<ScoreView[]> => {
  const response = await api.get<ScorePage>(SCORES, query);
  expect(response.status).toBe(200);
  return response.body.data;
};
const traceIds = async (api: Api, query: Record<string, string | number>): Promise<string[]> => {
  const response = await api.get<TracePage>(TRACES, query);
  expect(response.status).toBe(200);
  return response.body.data.map((t) => t.id);
};

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

describe('Scores', () => {
  const ctx = useStack();

  it("keeps each project's scores and configs its own: another project's are 404 and never shown", async () => {
    const mine = await inNewProject(ctx.api);
    const theirs = await inNewProject(ctx.api);
    const traceId = anId();
    // The same trace id in both projects: a trace id is the client's, unique only within a project.
    await ingest(mine.api, aTrace({ id: traceId }), { wait: true });
    await ingest(theirs.api, aTrace({ id: traceId }), { wait: true });
    const config = await createConfig(mine.api, { name: 'quality', dataType: 'numeric', min: 0, max: 1 });
    const score = await postScore(mine.api, { id: 'sc-shared-id', traceId, name: 'quality', value: 0.9 });
    expect(score.status).toBe(201);

    expectProblem(await theirs.api.request('DELETE', `${SCORES}/${score.body.id}`), 404, 'not_found');
    expectProblem(await theirs.api.request('PUT', `${SCORE_CONFIGS}/${config.id}`, { json: { archived: true } }), 404, 'not_found');
    expect(await listScores(theirs.api)).toEqual([]);
    expect(await listScores(theirs.api, { traceId })).toEqual([]);
    expect((await theirs.api.get<Answer<'listScoreConfigs'>>(SCORE_CONFIGS)).body.data).toEqual([]);
    expect((await readNow(theirs.api, traceId)).scores).toEqual([]);
    expect(await traceIds(theirs.api, { scoreName: 'quality' })).toEqual([]);
    // Their config of the same name does not check my scores, nor mine theirs; and their id space is their own.
    const theirScore = await postScore(theirs.api, { id: 'sc-shared-id', traceId, name: 'quality', value: 7 });
    expect(theirScore.status).toBe(201);
    expect(theirScore.body.configId).toBeNull();
    // Still mine, untouched.
    expect((await readNow(mine.api, traceId)).scores).toEqual([score.body]);
    expect((await mine.api.request('DELETE', `${SCORES}/${score.body.id}`)).status).toBe(204);
    expect((await readNow(theirs.api, traceId)).scores).toEqual([theirScore.body]);
  });

  it('creates, lists and deletes a score; an unknown id is 404', async () => {
    const { api } = await inNewProject(ctx.api);
    const traceId = anId();
    const created = await postScore(api, { traceId, spanId: 'render', name: 'sharpness', value: 0.75, comment: 'soft at 0:03', source: 'annotation', author: 'ana' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^sc_/),
      traceId,
      spanId: 'render',
      name: 'sharpness',
      value: 0.75,
      stringValue: null,
      dataType: 'numeric',
      source: 'annotation',
      comment: 'soft at 0:03',
      configId: null,
      evaluatorId: null,
      author: 'ana',
      createdAt: expect.stringMatching(ISO_MILLIS_UTC),
    });
    const byKey = await postScore(api, { traceId, name: 'approved', value: true });
    expect(byKey.body).toMatchObject({ value: 1, stringValue: 'true', dataType: 'boolean', source: 'api', author: expect.stringMatching(/^key_/) });
    expect(await listScores(api)).toEqual([byKey.body, created.body]);

    const deleted = await api.request('DELETE', `${SCORES}/${created.body.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect(await listScores(api)).toEqual([byKey.body]);
    expectProblem(await api.request('DELETE', `${SCORES}/${created.body.id}`), 404, 'not_found');
  });

  it('refuses invalid scores naming the field, and values that do not fit their config naming `value`', async () => {
    const { api } = await inNewProject(ctx.api);
    const traceId = anId();
    expectProblem(await postScore(api, { traceId, value: 1 }), 400, 'validation_failed', ['name']);
    expectProblem(await postScore(api, { traceId, name: 'x'.repeat(101), value: 1, comment: 'c'.repeat(5001) }), 400, 'validation_failed', ['name', 'comment']);
    expectProblem(await postScore(api, { traceId: 'has space', name: 'q', value: 1, source: 'robot' }), 400, 'validation_failed', ['traceId', 'source']);
    expectProblem(await postScore(api, { traceId, name: 'q', value: { nested: 1 } }), 400, 'validation_failed', ['value']);
    // Text PostgreSQL cannot hold as sent is refused by its field, not a 500 from the store; filters with it find nothing.
    expectProblem(await postScore(api, { traceId, name: 'q', value: 1, comment: 'a\u0000b' }), 400, 'validation_failed', ['comment']);
    expectProblem(await api.post(SCORE_CONFIGS, { name: 'q\u0000', dataType: 'boolean' }), 400, 'validation_failed', ['name']);
    for (const [path, query] of [
      [SCORES, { name: 'a\u0000b' }],
      [TRACES, { scoreName: 'a\u0000b' }],
      [TRACES, { scoreName: 'q', scoreValue: 'a\u0000b' }],
    ] as const) {
      expect((await api.get(path, query)).status).toBeLessThan(500);
    }

    const range = await createConfig(api, { name: 'quality', dataType: 'numeric', min: 0, max: 1, description: 'overall' });
    expect(range).toMatchObject({ name: 'quality', dataType: 'numeric', min: 0, max: 1, categories: null, archived: false });
    const verdict = await createConfig(api, {
      name: 'verdict',
      dataType: 'categorical',
      categories: [
        { label: 'bad', value: 0 },
        { label: 'good', value: 1 },
      ],
    });
    await createConfig(api, { name: 'approved', dataType: 'boolean' });

    expectProblem(await postScore(api, { traceId, name: 'quality', value: 1.5 }), 400, 'validation_failed', ['value']);
    expectProblem(await postScore(api, { traceId, name: 'verdict', value: 'meh' }), 400, 'validation_failed', ['value']);
    expectProblem(await postScore(api, { traceId, name: 'approved', value: 0.5 }), 400, 'validation_failed', ['value']);
    expectProblem(await postScore(api, { traceId, name: 'quality', configId: verdict.id, value: 'good' }), 400, 'validation_failed', ['name']);
    expectProblem(await postScore(api, { traceId, name: 'quality', configId: 'scfg_missing', value: 0.5 }), 400, 'validation_failed', ['configId']);
    expect((await postScore(api, { traceId, name: 'quality', value: 1 })).body).toMatchObject({ value: 1, configId: range.id });
    expect((await postScore(api, { traceId, name: 'verdict', value: 'good' })).body).toMatchObject({
      value: 1,
      stringValue: 'good',
      dataType: 'categorical',
      configId: verdict.id,
    });

    // Configs: a name once per project; a type or range never changes; archived, a config no longer checks scores by name.
    expectProblem(await api.post(SCORE_CONFIGS, { name: 'quality', dataType: 'boolean' }), 409, 'conflict');
    expectProblem(await api.post(SCORE_CONFIGS, { name: 'q2', dataType: 'numeric', min: 2, max: 1 }), 400, 'validation_failed', ['max']);
    expectProblem(await api.post(SCORE_CONFIGS, { name: 'q3', dataType: 'categorical' }), 400, 'validation_failed', ['categories']);
    expectProblem(await api.request('PUT', `${SCORE_CONFIGS}/${range.id}`, { json: { max: 10, dataType: 'boolean' } }), 400, 'validation_failed', ['max', 'dataType']);
    const archived = await api.request<ScoreConfigView>('PUT', `${SCORE_CONFIGS}/${range.id}`, { json: { archived: true, description: 'retired' } });
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ id: range.id, archived: true, description: 'retired', min: 0, max: 1 });
    expect((await postScore(api, { traceId, name: 'quality', value: 1.5 })).status).toBe(201);
    const configs = await api.get<Answer<'listScoreConfigs'>>(SCORE_CONFIGS);
    expect(configs.body.data.map((c) => c.name)).toEqual(['quality', 'verdict', 'approved']);
  });

  it('makes a score with a client id idempotent: the same body answers 200 with the same score, another 409', async () => {
    const { api } = await inNewProject(ctx.api);
    const body = { id: anId('sc'), traceId: anId(), name: 'quality', value: 0.5 };
    const first = await postScore(api, body);
    expect(first.status).toBe(201);
    const again = await postScore(api, body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expectProblem(await postScore(api, { ...body, value: 0.6 }), 409, 'conflict');
    expect(await listScores(api)).toEqual([first.body]);
  });

  it('stores up to 1000 scores in a batch, each accepted or rejected on its own (207)', async () => {
    const { api } = await inNewProject(ctx.api);
    const traceId = anId();
    const response = await api.post<Answer<'createScoreBatch', 207>>(`${SCORES}/batch`, {
      scores: [
        { id: 'b1', traceId, name: 'quality', value: 0.4 },
        { traceId, name: '', value: 1 },
        { id: 'b3', traceId, name: 'verdict', value: 'good' },
      ],
    });
    expect(response.status).toBe(207);
    expect(response.body).toEqual({
      accepted: 2,
      rejected: 1,
      items: [
        { index: 0, id: 'b1', result: 'accepted' },
        { index: 1, id: null, result: 'rejected', errors: [expect.objectContaining({ path: 'name' })] },
        { index: 2, id: 'b3', result: 'accepted' },
      ],
    });
    expect((await listScores(api, { traceId })).map((s) => s.id).sort()).toEqual(['b1', 'b3']);
    const tooMany = Array.from({ length: 1001 }, () => ({ traceId, name: 'q', value: 1 }));
    expectProblem(await api.post(`${SCORES}/batch`, { scores: tooMany }), 400, 'validation_failed', ['scores']);
  });

  it('keeps a score sent before its trace and shows it on the trace, with the latest value per name on its summary', async () => {
    const { api } = await inNewProject(ctx.api);
    const traceId = anId();
    const early = await postScore(api, { traceId, name: 'quality', value: 0.3 });
    expect(early.status).toBe(201);
    expectProblem(await api.get(`${TRACES}/${traceId}`), 404, 'not_found');
    await ingest(api, aTrace({ id: traceId, spans: [aSpan({ id: 'render' })] }), { wait: true });
    const later = await postScore(api, { traceId, spanId: 'render', name: 'quality', value: 0.8 });
    const label = await postScore(api, { traceId, name: 'verdict', value: 'good' });

    const trace = await readNow(api, traceId);
    expect(trace.scores).toEqual([early.body, later.body, label.body]);
    expect(trace.scores.map((s) => s.spanId)).toEqual([null, 'render', null]);
    const summary = (await api.get<TracePage>(TRACES)).body.data.find((t) => t.id === traceId);
    expect(summary?.scores).toEqual({ quality: 0.8, verdict: 'good' });
  });

  it('lists scores by traceId, spanId, name, source, configId and createdAt, page by page', async () => {
    const { api } = await inNewProject(ctx.api);
    const [t1, t2] = [anId(), anId()];
    const config = await createConfig(api, { name: 'approved', dataType: 'boolean' });
    const a = (await postScore(api, { traceId: t1, name: 'quality', value: 0.1 })).body;
    const b = (await postScore(api, { traceId: t1, spanId: 's1', name: 'quality', value: 0.2, source: 'annotation' })).body;
    const c = (await postScore(api, { traceId: t2, name: 'approved', value: false })).body;
    const ids = async (query: Record<string, string | number>) => (await listScores(api, query)).map((s) => s.id);
    expect(await ids({ traceId: t1 })).toEqual([b.id, a.id]);
    expect(await ids({ traceId: t1, spanId: 's1' })).toEqual([b.id]);
    expect(await ids({ name: 'approved' })).toEqual([c.id]);
    expect(await ids({ source: 'annotation' })).toEqual([b.id]);
    expect(await ids({ configId: config.id })).toEqual([c.id]);
    expect(await ids(args({ traceId: t2, name: 'approved' }))).toEqual([c.id]);
    expect(await ids({ from: c.createdAt })).toContain(c.id);
    expect(await ids({ to: a.createdAt })).toEqual([]);
    expect(await ids({ from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);

    const first = await api.get<ScorePage>(SCORES, { limit: 2 });
    expect(first.body.data.map((s) => s.id)).toEqual([c.id, b.id]);
    const second = await api.get<ScorePage>(SCORES, { limit: 2, cursor: first.body.nextCursor! });
    expect(second.body).toEqual({ data: [a], nextCursor: null });
    expectProblem(await api.get(SCORES, { value: 1 }), 400, 'validation_failed', ['value']);
    expectProblem(await api.get(SCORES, args({ traceId: 5 })), 400, 'validation_failed', ['args.traceId']);
  });

  it('filters the trace list by the latest score of a name: scoreMin/scoreMax inclusive, or scoreValue', async () => {
    const { api } = await inNewProject(ctx.api);
    const [low, high, none, rated] = [anId(), anId(), anId(), anId()];
    for (const [i, id] of [low, high, none, rated].entries()) await ingest(api, aTrace({ id, startTime: new Date(Date.UTC(2026, 2, 1, 10, i)).toISOString() }), { wait: true });
    await postScore(api, { traceId: low, name: 'quality', value: 0.2 });
    await postScore(api, { traceId: high, name: 'quality', value: 0.1 });
    // Its latest quality is the one that counts.
    await postScore(api, { traceId: high, name: 'quality', value: 0.9 });
    await postScore(api, { traceId: rated, name: 'verdict', value: 'good' });

    expect(await traceIds(api, { scoreName: 'quality', scoreMin: 0.5 })).toEqual([high]);
    expect(await traceIds(api, { scoreName: 'quality', scoreMax: 0.2 })).toEqual([low]);
    expect(await traceIds(api, { scoreName: 'quality', scoreMin: 0.2, scoreMax: 0.9 })).toEqual([high, low]);
    expect(await traceIds(api, args({ scoreName: 'quality', scoreMin: 0.9 }))).toEqual([high]);
    expect(await traceIds(api, { scoreName: 'verdict', scoreValue: 'good' })).toEqual([rated]);
    expect(await traceIds(api, { scoreName: 'verdict', scoreValue: 'bad' })).toEqual([]);
    expect((await traceIds(api, {})).sort()).toEqual([low, high, none, rated].sort());
    expectProblem(await api.get(TRACES, { scoreMin: 0.5 }), 400, 'validation_failed', ['scoreMin']);
    expectProblem(await api.get(TRACES, { scoreName: 'quality', scoreMin: 'high' }), 400, 'validation_failed', ['scoreMin']);
    expectProblem(await api.get(TRACES, { scoreName: 'verdict', scoreMin: 0, scoreValue: 'good' }), 400, 'validation_failed', ['scoreValue']);
  });

  it('takes scores from a key with the ingest scope, and refuses them to a read key (403)', async () => {
    const { key } = await inNewProject(ctx.api);
    const ingestKey = await keyWithScopes(ctx.api, key, ['ingest']);
    const readKey = await keyWithScopes(ctx.api, key, ['read']);
    expect((await postScore(ingestKey, { traceId: anId(), name: 'q', value: 1 })).status).toBe(201);
    expectProblem(await postScore(readKey, { traceId: anId(), name: 'q', value: 1 }), 403, 'insufficient_scope');
    expect(await listScores(readKey)).toHaveLength(1);
    expectProblem(await readKey.post(SCORE_CONFIGS, { name: 'q', dataType: 'boolean' }), 403, 'insufficient_scope');
  });

  it("shows a benchmark task's scorer results as scores of its trace, with source benchmark", async () => {
    const { api } = await inNewProject(ctx.api);
    const { benchmarkId } = await benchmarkOn(api, captionItems(2));
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
    expect(run.status).toBe('completed');
    const tasks = await allTasks(api, benchmarkId, run.id);
    for (const task of tasks) {
      const [expected] = task.scores;
      const scores = await eventually(`the scores of task ${task.id}`, async () => {
        const found = await listScores(api, { traceId: task.traceId!, source: 'benchmark' });
        return found.length ? found : undefined;
      });
      expect(scores).toEqual([
        expect.objectContaining({ traceId: task.traceId, spanId: null, name: 'exact_match', value: expected.score, dataType: 'numeric', source: 'benchmark', author: null }),
      ]);
      const trace = await readNow(api, task.traceId!);
      expect(trace.scores).toEqual(scores);
    }
    const summaries = (await api.get<TracePage>(TRACES, { scoreName: 'exact_match', scoreMin: 1 })).body.data;
    expect(summaries.map((t) => t.id)).toEqual([tasks[0].traceId]);
    expect(summaries[0].scores).toEqual({ exact_match: 1 });
  });
});
