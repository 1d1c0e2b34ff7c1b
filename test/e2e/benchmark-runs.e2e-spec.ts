import { expect } from '@jest/globals';
import { unique } from '@cinetrace/testing';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { BENCHMARKS, allTasks, benchmarkOn, benchmarkPath, captionItems, runEnds, start, startOk, summaryWhen, tasksOf } from './support/benchmarks';
import { appendOk, readDataset } from './support/datasets';
import { ModelEndpoints, type TargetCall } from './support/model-endpoints';
import { aPrompt, inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';
import { type TraceView } from './support/traces';

jest.setTimeout(120_000);

const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'];

describe('Benchmark runs', () => {
  // Local endpoints stand in for models and scorers; small quotas make the limits testable.
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true', QUOTA_TASKS_PER_RUN: '40', QUOTA_STARTS_PER_HOUR: '6' } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  describe('a run from start to end', () => {
    it('answers 202 with the queued run, runs every item once and reports scores, counts and status', async () => {
      const { api } = await inNewProject(ctx.api);
      const items = captionItems(6);
      const { benchmarkId, datasetId } = await benchmarkOn(api, items, { runner: { concurrency: 2 } });
      const dataset = await readDataset(api, datasetId);

      const started = await start<Answer<'startBenchmarkRun', 202>>(api, benchmarkId, { experiment: { name: 'baseline', flags: { model: 'v3' } } });
      expect(started.status).toBe(202);
      expect(started.body).toEqual({ id: expect.stringMatching(/^run_/), benchmarkId, status: 'queued', taskCount: 6, createdAt: expect.stringMatching(ISO_MILLIS_UTC) });

      const run = await runEnds(api, benchmarkId, started.body.id);
      expect(run).toMatchObject({
        id: started.body.id,
        benchmarkId,
        status: 'completed',
        experiment: { name: 'baseline', flags: { model: 'v3' } },
        runner: { concurrency: 2, maxAttempts: 3, timeoutMs: 60000 },
        datasetVersion: dataset.version,
        prompt: null,
        counts: { total: 6, pending: 0, running: 0, completed: 6, failed: 0, cancelled: 0 },
        scores: { exact_match: { mean: 0.5, passRate: 0.5 } },
        startedAt: expect.stringMatching(ISO_MILLIS_UTC),
        finishedAt: expect.stringMatching(ISO_MILLIS_UTC),
      });

      const tasks = await allTasks(api, benchmarkId, run.id);
      expect(tasks.map((t) => t.itemIndex)).toEqual([0, 1, 2, 3, 4, 5]);
      for (const [i, task] of tasks.entries()) {
        expect(task).toMatchObject({ runId: run.id, status: 'completed', attempts: 1, error: null, output: items[i].metadata.output });
        expect(task.scores).toEqual([{ scorer: 'exact_match', score: i % 2 === 0 ? 1 : 0, passed: i % 2 === 0, details: null, error: null }]);
        expect(task.durationMs).toBeGreaterThanOrEqual(0);
      }

      const benchmark = (await api.get<Answer<'getBenchmark'>>(benchmarkPath(benchmarkId))).body;
      expect(benchmark.status).toBe('completed');
      expect(benchmark.lastRun).toMatchObject({ id: run.id, status: 'completed' });
    });

    it('never runs more of a run at once than its concurrency, and keeps that many running until the end', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(16), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/counted` },
        scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
        runner: { concurrency: 3, maxAttempts: 1 },
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.counts).toMatchObject({ total: 16, completed: 16 });
      expect(endpoints.sentTo('/target/counted')).toHaveLength(16);
      expect(endpoints.countedMost).toBe(3);
    });

    it('records each task as a trace of the project: the target call and each scorer as spans', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1));
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task.traceId).toEqual(expect.any(String));
      let trace: TraceView | undefined;
      for (let i = 0; i < 100 && !trace?.spans?.some((s) => s.kind === 'scorer'); i += 1) {
        const response = await api.get<TraceView>(`/api/v1/traces/${task.traceId}`);
        if (response.status === 200) trace = response.body;
        else await new Promise((r) => setTimeout(r, 100));
      }
      expect(trace!.metadata).toMatchObject({ benchmarkId, runId: run.id, taskId: task.id });
      expect(trace!.spans.map((s) => s.kind)).toEqual(expect.arrayContaining(['scorer']));
      expect(trace!.spans.length).toBeGreaterThanOrEqual(3);
    });

    it('calls an http target with the rendered prompt, and http and llm_judge scorers, adding up cost', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await api.post<Answer<'createPrompt', 201>>('/api/v1/prompts', aPrompt({ content: 'A slow dolly shot of {{subject}}' }));
      expect(prompt.status).toBe(201);
      const items = [{ input: { subject: 'a fox' }, expected: { caption: 'A slow dolly shot of a fox' } }];
      const { benchmarkId } = await benchmarkOn(api, items, {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, promptId: prompt.body.id },
        scorers: [
          { type: 'http', config: { url: `${endpoints.baseUrl}/scorer` } },
          { type: 'llm_judge', config: { baseUrl: `${endpoints.baseUrl}/judge`, model: 'judge-1', rubric: 'Does the caption match?' } },
          { name: 'long enough', type: 'range', config: { field: 'durationSeconds', min: 2 } },
        ],
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.status).toBe('completed');
      expect(run.costUsd).toBeCloseTo(0.25);
      expect(run.scores).toEqual({ http: { mean: 1, passRate: 1 }, llm_judge: { mean: 0.75, passRate: 1 }, 'long enough': { mean: 1, passRate: 1 } });
      const [sent] = endpoints.sentTo<TargetCall>('/target/caption').filter((r) => r.body.item?.input?.subject === 'a fox');
      expect(sent.body.prompt).toBe('A slow dolly shot of a fox');
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task).toMatchObject({ output: { caption: 'A slow dolly shot of a fox', durationSeconds: 4 }, usage: { frames: 96 }, costUsd: 0.25 });
    });

    it('calls an openai_chat target and keeps its token usage', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, [{ input: 'a heron taking off', expected: 'caption for a heron taking off' }], {
        target: { type: 'openai_chat', baseUrl: `${endpoints.baseUrl}/chat`, model: 'video-captioner' },
        scorers: [{ type: 'exact_match' }, { type: 'string_similarity' }],
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task).toMatchObject({ status: 'completed', output: 'caption for a heron taking off', usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } });
      expect(run.scores).toEqual({ exact_match: { mean: 1, passRate: 1 }, string_similarity: { mean: 1, passRate: 1 } });
    });
  });

  describe('failures', () => {
    it('retries a failing target up to maxAttempts, then fails the task and the run', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(2), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/fail` },
        runner: { maxAttempts: 2 },
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run).toMatchObject({ status: 'failed', counts: { total: 2, completed: 0, failed: 2 } });
      for (const task of await allTasks(api, benchmarkId, run.id)) {
        expect(task).toMatchObject({ status: 'failed', attempts: 2, output: null });
        expect(task.error).toMatch(/500/);
      }
    });

    it('completes a task whose target failed once, on its second attempt', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(2), { target: { type: 'http', url: `${endpoints.baseUrl}/target/flaky` } });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.status).toBe('completed');
      expect((await allTasks(api, benchmarkId, run.id)).map((t) => t.attempts)).toEqual([2, 2]);
    });

    it('fails an attempt that runs past timeoutMs', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/slow` },
        runner: { maxAttempts: 1, timeoutMs: 1000 },
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task).toMatchObject({ status: 'failed', attempts: 1 });
      expect(task.error).toMatch(/time/i);
      expect(task.durationMs).toBeLessThan(2900);
    });

    it('does not follow a redirect (here to a link-local address)', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), { target: { type: 'http', url: `${endpoints.baseUrl}/target/redirect` } });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task).toMatchObject({ status: 'failed', attempts: 1 });
      expect(task.error).toMatch(/redirect/i);
    });

    it('gives a scorer that fails an error of its own, not the task', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), {
        scorers: [
          { type: 'exact_match', config: { field: 'caption' } },
          { type: 'http', config: { url: `${endpoints.baseUrl}/target/fail` } },
        ],
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task.status).toBe('completed');
      expect(task.scores[0]).toMatchObject({ scorer: 'exact_match', score: 1, error: null });
      expect(task.scores[1]).toMatchObject({ scorer: 'http', score: null, passed: null, error: expect.stringMatching(/500/) });
      expect(run.scores.http).toEqual({ mean: null, passRate: null });
    });
  });

  describe('start', () => {
    it('takes rowSubset as a window or as item ids, and keeps the dataset version it started with', async () => {
      const { api } = await inNewProject(ctx.api);
      const items = captionItems(5);
      const { benchmarkId, datasetId } = await benchmarkOn(api, items);
      const window = await runEnds(api, benchmarkId, await startOk(api, benchmarkId, { rowSubset: { offset: 1, limit: 2 } }));
      expect((await allTasks(api, benchmarkId, window.id)).map((t) => t.itemIndex)).toEqual([1, 2]);

      const stored = (await api.get<Answer<'listDatasetItems'>>(`/api/v1/datasets/${datasetId}/items`, { limit: 10 })).body.data;
      const byIds = await runEnds(api, benchmarkId, await startOk(api, benchmarkId, { rowSubset: { itemIds: [stored[4].id, stored[0].id] } }));
      expect((await allTasks(api, benchmarkId, byIds.id)).map((t) => t.itemId)).toEqual([stored[0].id, stored[4].id]);

      const before = await readDataset(api, datasetId);
      const runId = await startOk(api, benchmarkId);
      await appendOk(api, datasetId, captionItems(3));
      const whole = await runEnds(api, benchmarkId, runId);
      expect(whole).toMatchObject({ datasetVersion: before.version, counts: { total: 5 } });
    });

    it('refuses a bad body, naming each field', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(2));
      const both = await start(api, benchmarkId, { rowSubset: { offset: 1, itemIds: ['dsi_x'] }, runner: { concurrency: 0 } });
      expectProblem(both, 400, 'validation_failed');
      expect(both.body.errors?.map((e) => e.path).sort()).toEqual(['rowSubset', 'runner.concurrency']);
      const unknown = await start(api, benchmarkId, { rowSubset: { itemIds: ['dsi_nope'] } });
      expectProblem(unknown, 400, 'validation_failed');
      expect(unknown.body.errors?.map((e) => e.path)).toEqual(['rowSubset.itemIds[0]']);
      const beyond = await start(api, benchmarkId, { rowSubset: { offset: 10 } });
      expectProblem(beyond, 400, 'validation_failed');
      expect((await start(api, 'bm_nope')).status).toBe(404);
    });

    it('answers 409 run_in_progress while a run is active: of 10 concurrent starts exactly one wins', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(2), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/slow` },
        runner: { concurrency: 1, maxAttempts: 1, timeoutMs: 1000 },
      });
      const answers = await Promise.all(Array.from({ length: 10 }, () => start<Answer<'startBenchmarkRun', 202>>(api, benchmarkId)));
      expect(answers.map((a) => a.status).sort()).toEqual([202, ...Array<number>(9).fill(409)]);
      const winner = answers.find((a) => a.status === 202)!.body.id;
      expectProblem(
        answers.find((a) => a.status === 409)!,
        409,
        'run_in_progress',
      );
      await runEnds(api, benchmarkId, winner);
      expect((await start(api, benchmarkId)).status).toBe(202);
    });

    it('honours Idempotency-Key: the same start twice is one run', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1));
      const key = unique('start');
      const first = await start<Answer<'startBenchmarkRun', 202>>(api, benchmarkId, {}, { 'Idempotency-Key': key });
      const again = await start<Answer<'startBenchmarkRun', 202>>(api, benchmarkId, {}, { 'Idempotency-Key': key });
      expect(first.status).toBe(202);
      expect(again.status).toBe(202);
      expect(again.body.id).toBe(first.body.id);
      expect((await api.get<Answer<'listBenchmarkRuns'>>(`${benchmarkPath(benchmarkId)}/runs`)).body.data).toHaveLength(1);
    });

    it('answers 429 quota_exceeded with Retry-After over QUOTA_TASKS_PER_RUN and QUOTA_STARTS_PER_HOUR', async () => {
      const { api } = await inNewProject(ctx.api);
      const big = await benchmarkOn(api, captionItems(41));
      const tooMany = await start(api, big.benchmarkId);
      expectProblem(tooMany, 429, 'quota_exceeded');
      expect(tooMany.body.detail).toMatch(/QUOTA_TASKS_PER_RUN/);
      expect(Number(tooMany.headers.get('retry-after'))).toBeGreaterThan(0);

      const { benchmarkId } = await benchmarkOn(api, captionItems(1));
      for (let i = 0; i < 6; i += 1) await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const seventh = await start(api, benchmarkId);
      expectProblem(seventh, 429, 'quota_exceeded');
      expect(seventh.body.detail).toMatch(/QUOTA_STARTS_PER_HOUR/);
      const retryAfter = Number(seventh.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(3000);
      expect(retryAfter).toBeLessThanOrEqual(3600);
    });

    it('answers 429 over QUOTA_ACTIVE_RUNS (2 by default) while two runs of the project are active', async () => {
      const { api } = await inNewProject(ctx.api);
      const slow = { target: { type: 'http', url: `${endpoints.baseUrl}/target/slow` }, runner: { concurrency: 1, maxAttempts: 1, timeoutMs: 1000 } };
      const a = await benchmarkOn(api, captionItems(3), slow);
      const b = await benchmarkOn(api, captionItems(3), slow);
      const c = await benchmarkOn(api, captionItems(1));
      await startOk(api, a.benchmarkId);
      await startOk(api, b.benchmarkId);
      const third = await start(api, c.benchmarkId);
      expectProblem(third, 429, 'quota_exceeded');
      expect(third.body.detail).toMatch(/QUOTA_ACTIVE_RUNS/);
      expect(third.headers.get('retry-after')).toEqual(expect.stringMatching(/^\d+$/));
    });
  });

  describe('tasks and runs routes', () => {
    it('lists the latest run by default, filters by status, pages in dataset order, and says where the run stands', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(5));
      const never = await tasksOf(api, benchmarkId);
      expect(never.status).toBe(200);
      expect(never.body).toEqual({ data: [], nextCursor: null, summary: null });

      const first = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const second = await runEnds(api, benchmarkId, await startOk(api, benchmarkId, { rowSubset: { limit: 3 } }));
      const latest = await tasksOf(api, benchmarkId, { limit: 2 });
      expect(latest.body.summary).toEqual({
        id: second.id,
        status: 'completed',
        counts: { total: 3, pending: 0, running: 0, completed: 3, failed: 0, cancelled: 0 },
        // Caption outputs name no media.
        annotations: { total: 0, labels: {}, labelsOmitted: 0, mediaOmitted: 0 },
      });
      expect(latest.body.data.map((t) => [t.runId, t.itemIndex])).toEqual([
        [second.id, 0],
        [second.id, 1],
      ]);
      const page2 = await tasksOf(api, benchmarkId, { limit: 2, cursor: latest.body.nextCursor ?? undefined });
      expect(page2.body.data.map((t) => t.itemIndex)).toEqual([2]);
      expect(page2.body.nextCursor).toBeNull();

      const older = await tasksOf(api, benchmarkId, { runId: first.id, status: 'completed' });
      expect(older.body.data).toHaveLength(5);
      expect(older.body.summary?.id).toBe(first.id);
      expect((await tasksOf(api, benchmarkId, { runId: first.id, status: 'failed' })).body.data).toEqual([]);
      expectProblem(await tasksOf(api, benchmarkId, { status: 'done' }), 400, 'validation_failed');
      expectProblem(await tasksOf(api, benchmarkId, { runId: 'run_nope' }), 404, 'not_found');
      expectProblem(await tasksOf(api, benchmarkId, { sort: 'x' }), 400, 'validation_failed');

      const runs = (await api.get<Answer<'listBenchmarkRuns'>>(`${benchmarkPath(benchmarkId)}/runs`)).body.data;
      expect(runs.map((r) => r.id)).toEqual([second.id, first.id]);
      expect(RUN_STATUSES).toContain(runs[0].status);
    });

    it("filters benchmarks by status and shows each one's last run", async () => {
      const { api } = await inNewProject(ctx.api);
      const ran = await benchmarkOn(api, captionItems(1));
      const idle = await benchmarkOn(api, captionItems(1));
      await runEnds(api, ran.benchmarkId, await startOk(api, ran.benchmarkId));
      const completed = (await api.get<Answer<'listBenchmarks'>>(BENCHMARKS, { status: 'completed' })).body.data;
      expect(completed.map((b) => b.id)).toEqual([ran.benchmarkId]);
      const idleOnes = (await api.get<Answer<'listBenchmarks'>>(BENCHMARKS, { status: 'idle' })).body.data;
      expect(idleOnes.map((b) => [b.id, b.lastRun])).toEqual([[idle.benchmarkId, null]]);
    });

    it('keeps runs and tasks of one project out of another', async () => {
      const mine = await inNewProject(ctx.api);
      const theirs = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(mine.api, captionItems(1));
      await runEnds(mine.api, benchmarkId, await startOk(mine.api, benchmarkId));
      expectProblem(await tasksOf(theirs.api, benchmarkId), 404, 'not_found');
      expectProblem(await theirs.api.get(`${benchmarkPath(benchmarkId)}/runs`), 404, 'not_found');
      expectProblem(await start(theirs.api, benchmarkId), 404, 'not_found');
    });
  });

  describe('delete', () => {
    it('cancels the active run: its pending and running tasks become cancelled and nothing more runs', async () => {
      const { api } = await inNewProject(ctx.api);
      const tag = unique('doomed');
      const { benchmarkId } = await benchmarkOn(api, captionItems(4, tag), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/slow` },
        runner: { concurrency: 1, maxAttempts: 1, timeoutMs: 5000 },
      });
      const calls = () => endpoints.sentTo<TargetCall>('/target/slow').filter((r) => String(r.body.input.prompt).startsWith(tag)).length;
      const runId = await startOk(api, benchmarkId);
      await summaryWhen(api, benchmarkId, runId, (s) => s.counts.running === 1);
      for (let i = 0; i < 50 && calls() === 0; i += 1) await new Promise((r) => setTimeout(r, 50));
      const callsBefore = calls();
      expect(callsBefore).toBe(1);
      const deleted = await api.request<Answer<'deleteBenchmark'>>('DELETE', benchmarkPath(benchmarkId));
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: benchmarkId, deleted: true });
      expectProblem(await tasksOf(api, benchmarkId), 404, 'not_found');
      await new Promise((r) => setTimeout(r, 3500));
      // The cancelled run's remaining tasks were never handed to the target.
      expect(calls()).toBe(callsBefore);
    });
  });
});
