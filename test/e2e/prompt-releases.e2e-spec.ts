import { expect } from '@jest/globals';
import { Api, ApiResponse } from '@cinetrace/testing';
import { aBenchmark, BENCHMARKS, benchmarkOn, captionItems, runEnds, startOk, type RunView } from './support/benchmarks';
import { appendOk, createDataset } from './support/datasets';
import { createApiKey } from './support/api-keys';
import { expectProblem } from './support/expectations';
import { pageThrough } from './support/lists';
import { PROMPTS, createPrompt, inNewProject, moveOnceRunIsTold, put } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer, Item } from './support/api-types';

const releasePath = (id: string, name: string) => `${PROMPTS}/${id}/releases/${name}`;
const moveRelease = (api: Api, id: string, name: string, body: unknown): Promise<ApiResponse> => api.request('PUT', releasePath(id, name), { json: body });

/** A prompt with versions 1..count (content `take <n> of {{subject}}`). */
async function promptWithVersions(api: Api, count: number): Promise<string> {
  const prompt = await createPrompt(api, { content: 'take 1 of {{subject}}' });
  for (let n = 2; n <= count; n++) {
    const updated = await put(api, prompt.id, { content: `take ${n} of {{subject}}` });
    if (updated.status !== 200) throw new Error(`prompt update answered ${updated.status}: ${updated.text}`);
  }
  return prompt.id;
}

async function releasedActivity(api: Api, id: string): Promise<Item<'listPromptActivity'>[]> {
  const { items } = await pageThrough<Item<'listPromptActivity'>>(api, `${PROMPTS}/${id}/activity`, { limit: 200 });
  return items.filter((row) => row.action === 'released');
}

/** A completed run of `benchmarkId` (its target names the prompt's `staging` release) and the run as listed. */
async function runOnStaging(api: Api, benchmarkId: string): Promise<RunView> {
  const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
  if (run.status !== 'completed') throw new Error(`run ended ${run.status}`);
  return run;
}

describe('Prompt releases, gates, rendering', () => {
  const ctx = useStack();

  describe('releases', () => {
    it('are created, moved, listed and removed; every move is `released` in the activity with from and to', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 3);
      const created = await moveRelease(api, id, 'production', { version: 2 });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        name: 'production',
        version: 2,
        gate: null,
        updatedAt: expect.any(String),
        updatedBy: { type: 'api_key', id: expect.any(String) },
      });
      expect((await moveRelease(api, id, 'staging', { version: 3 })).status).toBe(200);
      expect((await moveRelease(api, id, 'production', { version: 3 })).status).toBe(200);
      // The same version again changes nothing and records nothing.
      expect((await moveRelease(api, id, 'production', { version: 3 })).status).toBe(200);

      const listed = await api.get<Answer<'listPromptReleases'>>(`${PROMPTS}/${id}/releases`);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((r) => [r.name, r.version])).toEqual([
        ['production', 3],
        ['staging', 3],
      ]);
      expect(listed.body.nextCursor).toBeNull();

      const removed = await api.request('DELETE', releasePath(id, 'staging'));
      expect(removed.status).toBe(204);
      expect(removed.text).toBe('');
      expectProblem(await api.request('DELETE', releasePath(id, 'staging')), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${id}`, { release: 'staging' }), 404, 'not_found');

      const activity = await releasedActivity(api, id);
      expect(activity.map((row) => row.changes)).toEqual([
        { staging: { from: 3, to: null } },
        { production: { from: 2, to: 3 } },
        { staging: { from: null, to: 3 } },
        { production: { from: null, to: 2 } },
      ]);
      expect(activity[0]).toEqual(expect.objectContaining({ promptId: id, version: 3, actor: { type: 'api_key', id: expect.any(String) } }));
    });

    it('refuses `latest`, a bad name, an unknown version and a bad body, naming the field', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 1);
      expectProblem(await moveRelease(api, id, 'latest', { version: 1 }), 400, 'validation_failed', ['name']);
      expectProblem(await api.request('DELETE', releasePath(id, 'latest')), 400, 'validation_failed', ['name']);
      expectProblem(await moveRelease(api, id, 'Prod!', { version: 1 }), 400, 'validation_failed', ['name']);
      expectProblem(await moveRelease(api, id, 'production', { version: 2 }), 400, 'validation_failed', ['version']);
      expectProblem(await moveRelease(api, id, 'production', { version: 'one', extra: 1 }), 400, 'validation_failed', ['version', 'extra']);
      expectProblem(await moveRelease(api, id, 'production', { version: 1, gate: { benchmarkId: 'bm_x', thresholds: { exact: 2 } } }), 400, 'validation_failed', [
        'gate.thresholds.exact',
      ]);
      expectProblem(await moveRelease(api, 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', 'production', { version: 1 }), 404, 'not_found');
      const wrongMethod = await api.post(releasePath(id, 'production'), { version: 1 });
      expectProblem(wrongMethod, 405, 'method_not_allowed');
      expect(wrongMethod.headers.get('allow')).toBe('PUT, DELETE');
    });

    it('`?release=` answers the version it points at, `latest` the newest; a rollback answers the older version at once', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 3);
      const identifier = (await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`)).body.identifier;
      await moveRelease(api, id, 'production', { version: 3 });
      const current = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`, { release: 'production' });
      expect([current.body.version, current.body.content, current.headers.get('etag')]).toEqual([3, 'take 3 of {{subject}}', `"${id}:3"`]);

      expect((await moveRelease(api, id, 'production', { version: 1 })).status).toBe(200);
      const byId = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`, { release: 'production' });
      const byIdentifier = await api.get<Answer<'getPromptByIdentifier'>>(`${PROMPTS}/by-identifier/${identifier}`, { release: 'production' });
      for (const answer of [byId, byIdentifier]) {
        expect([answer.status, answer.body.version, answer.body.content, answer.headers.get('etag')]).toEqual([200, 1, 'take 1 of {{subject}}', `"${id}:1"`]);
      }
      expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`, { release: 'latest' })).body.version).toBe(3);
      expectProblem(await api.get(`${PROMPTS}/${id}`, { release: 'canary' }), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${id}`, { release: 'production', version: '2' }), 400, 'validation_failed', ['release']);
      expect((await releasedActivity(api, id))[0].changes).toEqual({ production: { from: 3, to: 1 } });
    });

    it("a benchmark naming a release, version or prompt that does not exist is refused at create, naming the field; another project's prompt is none", async () => {
      const { api } = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 2);
      await moveRelease(api, id, 'staging', { version: 1 });
      const theirs = await promptWithVersions(other.api, 1);
      const dataset = await createDataset(api);
      const create = (target: Record<string, unknown>) => api.post(BENCHMARKS, aBenchmark(dataset.id, { target: { type: 'dataset', ...target } }));

      for (const [target, path] of [
        [{ promptId: id, promptRelease: 'canary' }, 'target.promptRelease'],
        [{ promptId: id, promptVersion: 3 }, 'target.promptVersion'],
        [{ promptId: theirs, promptRelease: 'latest' }, 'target.promptId'],
        [{ promptId: theirs }, 'target.promptId'],
      ] as const) {
        const refused = await create(target);
        expectProblem(refused, 400, 'validation_failed', [path]);
        expect(refused.text).not.toContain('take 1 of');
      }
      expect((await api.get<Answer<'listBenchmarks'>>(BENCHMARKS)).body.data).toEqual([]);
      for (const target of [
        { promptId: id, promptRelease: 'staging' },
        { promptId: id, promptRelease: 'latest' },
        { promptId: id, promptVersion: 2 },
      ]) {
        expect((await create(target)).status).toBe(201);
      }
    });

    it('concurrent moves of one release end with one winner, and the activity chains both moves', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 3);
      await moveRelease(api, id, 'production', { version: 1 });
      const answers = await Promise.all([moveRelease(api, id, 'production', { version: 2 }), moveRelease(api, id, 'production', { version: 3 })]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const final = (await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`, { release: 'production' })).body.version;
      expect([2, 3]).toContain(final);
      const [last, first] = (await releasedActivity(api, id)).map((row) => row.changes.production);
      // Applied one after the other: the second moved from where the first left it.
      expect(first.from).toBe(1);
      expect(last).toEqual({ from: first.to, to: final });
      expect(new Set([first.to, last.to])).toEqual(new Set([2, 3]));
    });
  });

  describe('gates', () => {
    /** A prompt with versions 1 and 2 (`staging` → 2) and a benchmark whose dataset target renders `staging`; half its items match. */
    async function gatedSetup(api: Api) {
      const id = await promptWithVersions(api, 2);
      await moveRelease(api, id, 'staging', { version: 2 });
      await moveRelease(api, id, 'production', { version: 1 });
      const { benchmarkId, datasetId } = await benchmarkOn(api, captionItems(4), { target: { type: 'dataset', promptId: id, promptRelease: 'staging' } });
      return { id, benchmarkId, datasetId };
    }

    // prompt-service judges gates from what benchmark-service tells it (docs/architecture.md, "Service dependencies").
    it('learn of a completed run a moment after it completes, of new dataset versions and of a deleted benchmark as the change is answered', async () => {
      const { api } = await inNewProject(ctx.api);
      const { id, benchmarkId, datasetId } = await gatedSetup(api);
      const gate = { benchmarkId, thresholds: { exact_match: 0.5 } };
      const run = await runOnStaging(api, benchmarkId);

      const passed = await moveOnceRunIsTold(api, id, 'production', { version: 2, gate }, run.id);
      expect(passed.status).toBe(200);
      expect((passed.body as Answer<'movePromptRelease'>).gate).toEqual({ ...gate, datasetVersion: run.datasetVersion });

      // Items appended: a new gate counts the dataset's new version, which no run covered yet.
      const appended = await appendOk(api, datasetId, captionItems(2));
      expect(appended.version).toBe(run.datasetVersion + 1);
      const fresh = await moveRelease(api, id, 'canary', { version: 2, gate });
      expectProblem(fresh, 409, 'gate_failed', ['version']);
      expect(fresh.body.detail).toContain(`over its whole dataset (version ${appended.version})`);
      expect(fresh.body.detail).toContain(`run '${run.id}' ran over version ${run.datasetVersion} of the dataset`);

      // The benchmark deleted: its gate can no longer be passed, from the next request on.
      expect((await api.request('DELETE', `${BENCHMARKS}/${benchmarkId}`)).status).toBe(200);
      const gone = await moveRelease(api, id, 'production', { version: 1 });
      expectProblem(gone, 409, 'gate_failed');
      expect(gone.body.detail).toContain(`gated by benchmark '${benchmarkId}', which no longer exists`);
    });

    it('refuse a version with no run, and one whose run scored below a threshold (naming the scorer and its mean); accept one that passed', async () => {
      const { api } = await inNewProject(ctx.api);
      const { id, benchmarkId } = await gatedSetup(api);

      const noRun = await moveRelease(api, id, 'production', { version: 2, gate: { benchmarkId, thresholds: { exact_match: 0.5 } } });
      expectProblem(noRun, 409, 'gate_failed', ['version']);
      expect(noRun.body.detail).toContain(`no completed run of benchmark '${benchmarkId}'`);
      // Refused, so nothing changed: not even the gate.
      expect((await api.get<Answer<'listPromptReleases'>>(`${PROMPTS}/${id}/releases`)).body.data.find((r) => r.name === 'production')).toEqual(
        expect.objectContaining({ version: 1, gate: null }),
      );

      // Run the benchmark on staging (version 2): it resolves the release and records the version on the run.
      const run = await runOnStaging(api, benchmarkId);
      expect(run.scores.exact_match.mean).toBe(0.5);
      expect(run.prompt).toEqual({ id, version: 2, release: 'staging' });

      const below = await moveOnceRunIsTold(api, id, 'production', { version: 2, gate: { benchmarkId, thresholds: { exact_match: 0.75 } } }, run.id);
      expectProblem(below, 409, 'gate_failed', ['gate.thresholds.exact_match']);
      expect(below.body.detail).toContain(run.id);
      expect(below.body.detail).toContain('exact_match 0.5 < 0.75');
      expect(below.body.errors?.[0].message).toContain('0.5');

      const passed = await moveRelease(api, id, 'production', { version: 2, gate: { benchmarkId, thresholds: { exact_match: 0.5 } } });
      expect(passed.status).toBe(200);
      expect(passed.body).toEqual(expect.objectContaining({ version: 2, gate: { benchmarkId, thresholds: { exact_match: 0.5 }, datasetVersion: run.datasetVersion } }));
      expect((await releasedActivity(api, id))[0].changes).toEqual({
        production: { from: 1, to: 2 },
        'production.gate': { from: null, to: { benchmarkId, thresholds: { exact_match: 0.5 }, datasetVersion: run.datasetVersion } },
      });

      // The gate stays: a rollback to version 1, which never ran, is refused too.
      expectProblem(await moveRelease(api, id, 'production', { version: 1 }), 409, 'gate_failed', ['version']);
    });

    it('can be added where a release stands, whatever that version scored: a gate judges moves, and only an admin adds one', async () => {
      const { api, key: projectKey } = await inNewProject(ctx.api);
      // production → 1, a version no run ever rendered.
      const { id, benchmarkId } = await gatedSetup(api);
      const writer = ctx.api.withAuthorization(`Bearer ${(await createApiKey(ctx.api, { scopes: ['write'] })).key}`).withProjectKey(projectKey);
      const gate = { benchmarkId, thresholds: { exact_match: 0.5 } };
      const production = async () => (await api.get<Answer<'listPromptReleases'>>(`${PROMPTS}/${id}/releases`)).body.data.find((r) => r.name === 'production');

      // A write key cannot add a gate, where the release stands or as a way to move it.
      expectProblem(await moveRelease(writer, id, 'production', { version: 1, gate }), 403, 'insufficient_scope');
      expectProblem(await moveRelease(writer, id, 'production', { version: 2, gate }), 403, 'insufficient_scope');
      expect(await production()).toEqual(expect.objectContaining({ version: 1, gate: null }));

      const added = await moveRelease(api, id, 'production', { version: 1, gate });
      expect(added.status).toBe(200);
      const release = added.body as Answer<'movePromptRelease'>;
      expect(release).toEqual(expect.objectContaining({ version: 1, gate: { ...gate, datasetVersion: expect.any(Number) } }));
      expect((await releasedActivity(api, id))[0].changes).toEqual({ 'production.gate': { from: null, to: release.gate } });

      // Changing only the gate keeps the version; an unknown scorer is still refused.
      const stricter = { benchmarkId, thresholds: { exact_match: 0.9 } };
      const changed = await moveRelease(api, id, 'production', { version: 1, gate: stricter });
      const changedRelease = changed.body as Answer<'movePromptRelease'>;
      expect([changed.status, changedRelease.version, changedRelease.gate?.thresholds]).toEqual([200, 1, stricter.thresholds]);
      expectProblem(await moveRelease(api, id, 'production', { version: 1, gate: { benchmarkId, thresholds: { bleu: 0.1 } } }), 400, 'validation_failed', ['gate.thresholds.bleu']);

      // The next move is judged: version 2 never ran.
      expectProblem(await moveRelease(writer, id, 'production', { version: 2 }), 409, 'gate_failed', ['version']);
      expect(await production()).toEqual(expect.objectContaining({ version: 1, gate: expect.objectContaining({ thresholds: stricter.thresholds }) }));
    });

    it('are project-scoped: a benchmark of another project is a 400 on gate.benchmarkId, an unknown scorer a 400 naming it', async () => {
      const { api } = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 1);
      const { benchmarkId: theirs } = await benchmarkOn(other.api, captionItems(2));
      const refused = await moveRelease(api, id, 'production', { version: 1, gate: { benchmarkId: theirs, thresholds: { exact_match: 0.1 } } });
      expectProblem(refused, 400, 'validation_failed', ['gate.benchmarkId']);
      expect(refused.text).not.toContain('Captions');

      const { benchmarkId: ours } = await benchmarkOn(api, captionItems(2));
      expectProblem(await moveRelease(api, id, 'production', { version: 1, gate: { benchmarkId: ours, thresholds: { bleu: 0.1 } } }), 400, 'validation_failed', [
        'gate.thresholds.bleu',
      ]);
      // Releases are the project's own: another project's key does not find the prompt.
      expectProblem(await other.api.get(`${PROMPTS}/${id}/releases`), 404, 'not_found');
      expectProblem(await moveRelease(other.api, id, 'production', { version: 1 }), 404, 'not_found');
    });

    it('setting or removing a gate needs admin; moving a gated release does not', async () => {
      const { api, key: projectKey } = await inNewProject(ctx.api);
      const { id, benchmarkId } = await gatedSetup(api);
      const run = await runOnStaging(api, benchmarkId);
      const writer = ctx.api.withAuthorization(`Bearer ${(await createApiKey(ctx.api, { scopes: ['write'] })).key}`).withProjectKey(projectKey);
      const gate = { benchmarkId, thresholds: { exact_match: 0.5 } };
      // Once prompt-service knows of the run, a gate through it passes.
      expect((await moveOnceRunIsTold(api, id, 'scratch', { version: 2, gate }, run.id)).status).toBe(200);
      expect((await api.request('DELETE', releasePath(id, 'scratch'))).status).toBe(204);

      expectProblem(await moveRelease(writer, id, 'production', { version: 2, gate }), 403, 'insufficient_scope');
      expect((await moveRelease(api, id, 'production', { version: 1, gate: null })).status).toBe(200);
      expect((await moveRelease(api, id, 'canary', { version: 2, gate })).status).toBe(200);
      // The same gate sent again is no change; a move through it is the writer's to make.
      expect((await moveRelease(writer, id, 'canary', { version: 2, gate: { thresholds: { exact_match: 0.5 }, benchmarkId } })).status).toBe(200);
      expectProblem(await moveRelease(writer, id, 'canary', { version: 2, gate: null }), 403, 'insufficient_scope');
      expectProblem(await writer.request('DELETE', releasePath(id, 'canary')), 403, 'insufficient_scope');
      expect((await writer.request('DELETE', releasePath(id, 'production'))).status).toBe(204);
      expect((await api.request('DELETE', releasePath(id, 'canary'))).status).toBe(204);
    });
  });

  describe('conditional GET', () => {
    it('answers 304 with no body to the current ETag, and 200 once there is a new version', async () => {
      const { api } = await inNewProject(ctx.api);
      const id = await promptWithVersions(api, 1);
      await moveRelease(api, id, 'production', { version: 1 });
      const identifier = (await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${id}`)).body.identifier;
      const [v1, v2] = [`"${id}:1"`, `"${id}:2"`];
      for (const [path, query] of [
        [`${PROMPTS}/${id}`, {}],
        [`${PROMPTS}/${id}`, { release: 'production' }],
        [`${PROMPTS}/by-identifier/${identifier}`, {}],
      ] as const) {
        const cached = await api.request('GET', path, { query, headers: { 'If-None-Match': v1 } });
        expect([cached.status, cached.text, cached.headers.get('etag')]).toEqual([304, '', v1]);
        const weak = await api.request('GET', path, { query, headers: { 'If-None-Match': `W/"${id}:7", W/${v1}` } });
        expect(weak.status).toBe(304);
      }
      await put(api, id, { content: 'take 2 of {{subject}}' });
      const fresh = await api.request<Answer<'getPrompt'>>('GET', `${PROMPTS}/${id}`, { headers: { 'If-None-Match': v1 } });
      expect([fresh.status, fresh.body.version, fresh.headers.get('etag')]).toEqual([200, 2, v2]);
      // The release did not move: its client's copy is still current.
      const release = await api.request('GET', `${PROMPTS}/${id}`, { query: { release: 'production' }, headers: { 'If-None-Match': v1 } });
      expect(release.status).toBe(304);
      await moveRelease(api, id, 'production', { version: 2 });
      const moved = await api.request<Answer<'getPrompt'>>('GET', `${PROMPTS}/${id}`, { query: { release: 'production' }, headers: { 'If-None-Match': v1 } });
      expect([moved.status, moved.body.version]).toEqual([200, 2]);
    });
  });

  describe('diff and render', () => {
    it('diff gives the changed fields and a unified diff of the content', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { content: 'line one\nline two {{subject}}', labels: ['a'] });
      await put(api, prompt.id, { content: 'line one\nline 2 {{subject}}', labels: ['b'] });
      const diff = await api.get<Answer<'diffPromptVersions'>>(`${PROMPTS}/${prompt.id}/diff`, { from: '1', to: '2' });
      expect(diff.status).toBe(200);
      expect(diff.body).toEqual({
        from: 1,
        to: 2,
        changes: { content: { from: 'line one\nline two {{subject}}', to: 'line one\nline 2 {{subject}}' }, labels: { from: ['a'], to: ['b'] } },
        contentDiff: expect.stringContaining('--- version 1\n+++ version 2\n@@ -1,2 +1,2 @@\n line one\n-line two {{subject}}\n+line 2 {{subject}}\n'),
      });
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}/diff`, { from: '1' }), 400, 'validation_failed', ['to']);
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}/diff`, { from: 'x', to: '2' }), 400, 'validation_failed', ['from']);
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}/diff`, { from: '1', to: '9' }), 404, 'not_found');
    });

    it('render fills strings, numbers and booleans, ignores extra keys, and names each missing variable', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { content: '{{subject}} at {{fps}} fps, loop {{loop}}, {{mood}}' });
      await put(api, prompt.id, { content: '{{subject}} only' });
      await moveRelease(api, prompt.id, 'production', { version: 1 });
      const rendered = await api.post<Answer<'renderPrompt'>>(`${PROMPTS}/${prompt.id}/render`, {
        variables: { subject: 'a lighthouse', fps: 24, loop: true, mood: 'calm', extra: 'x' },
        release: 'production',
      });
      expect(rendered.status).toBe(200);
      expect(rendered.body).toEqual({ version: 1, content: 'a lighthouse at 24 fps, loop true, calm', variables: ['subject', 'fps', 'loop', 'mood'] });
      const latest = await api.post<Answer<'renderPrompt'>>(`${PROMPTS}/${prompt.id}/render`, { variables: { subject: 'a pier' } });
      expect(latest.body).toEqual({ version: 2, content: 'a pier only', variables: ['subject'] });

      const missing = await api.post(`${PROMPTS}/${prompt.id}/render`, { variables: { subject: 'x' }, version: 1 });
      expectProblem(missing, 400, 'missing_variables', ['variables.fps', 'variables.loop', 'variables.mood']);
      expectProblem(await api.post(`${PROMPTS}/${prompt.id}/render`, { variables: { subject: { nested: 1 } } }), 400, 'validation_failed', ['variables.subject']);
      expectProblem(await api.post(`${PROMPTS}/${prompt.id}/render`, { variables: {}, version: 1, release: 'production' }), 400, 'validation_failed', ['release']);
      expectProblem(await api.post(`${PROMPTS}/${prompt.id}/render`, {}), 400, 'validation_failed', ['variables']);
    });
  });
});
