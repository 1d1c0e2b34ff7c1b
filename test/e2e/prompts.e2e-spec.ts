import { expect } from '@jest/globals';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { PROMPTS, aPrompt, createPrompt, del, inNewProject, put } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

const TYPES = ['text-to-video', 'image-to-video', 'video-to-video', 'text-to-image', 'image-to-image', 'text-to-audio', 'text-to-text'];

describe('Prompts', () => {
  const ctx = useStack();

  describe('create', () => {
    it('answers 201 with the prompt, its Location and ETag "1"', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const input = aPrompt({ labels: ['production', 'v2.beta'], metadata: { camera: 'dolly', fps: 24 } });
      const response = await api.post<Answer<'createPrompt', 201>>(PROMPTS, input);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^prm_\S+$/),
        projectId,
        identifier: expect.any(String),
        name: input.name,
        content: input.content,
        type: 'text-to-video',
        labels: ['production', 'v2.beta'],
        metadata: { camera: 'dolly', fps: 24 },
        variables: ['subject', 'time_of_day'],
        version: 1,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
        deletedAt: null,
      });
      expect(response.headers.get('location')).toBe(`${PROMPTS}/${response.body.id}`);
      expect(response.headers.get('etag')).toBe(`"${response.body.id}:1"`);
      const read = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${response.body.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(response.body);
    });

    it('derives the identifier from the name, with -2, -3 on collision', async () => {
      const { api } = await inNewProject(ctx.api);
      const identifiers = [];
      for (let i = 0; i < 3; i++) identifiers.push((await createPrompt(api, { name: 'Intro Shot' })).identifier);
      expect(identifiers).toEqual(['intro-shot', 'intro-shot-2', 'intro-shot-3']);
      expect((await createPrompt(api, { name: '¡¡!!' })).identifier).toBe('prompt');
    });

    it('keeps an explicit identifier and answers 409 conflict when it is taken', async () => {
      const { api } = await inNewProject(ctx.api);
      expect((await createPrompt(api, { identifier: 'hero_shot.v1' })).identifier).toBe('hero_shot.v1');
      expectProblem(await api.post(PROMPTS, aPrompt({ identifier: 'hero_shot.v1' })), 409, 'conflict');
    });

    it('lists the distinct {{placeholders}} in order of first use', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { content: '{{ b }} then {{a}} then {{b}} and {{ not valid }} {{c.d}}' });
      expect(prompt.variables).toEqual(['b', 'a', 'c.d']);
    });

    it('refuses an unknown type with a 400 naming every allowed value', async () => {
      const { api } = await inNewProject(ctx.api);
      const response = await api.post(PROMPTS, aPrompt({ type: 'text-to-smell' }));
      expectProblem(response, 400, 'validation_failed', ['type']);
      const message = response.body.errors?.find((e) => e.path === 'type')?.message;
      for (const type of TYPES) expect(message).toContain(type);
    });

    it.each([
      ['name', { name: '   ' }],
      ['content', { content: '' }],
      ['content', { content: 'x'.repeat(100_001) }],
      ['identifier', { identifier: '-starts-with-hyphen' }],
      ['identifier', { identifier: 'Upper' }],
      ['identifier', { identifier: 'x'.repeat(101) }],
      ['labels', { labels: 'production' }],
      ['labels', { labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }],
      ['labels[1]', { labels: ['ok', 'Not OK'] }],
      ['labels[2]', { labels: ['a', 'b', 'a'] }],
      ['labels[0]', { labels: ['x'.repeat(51)] }],
      ['metadata', { metadata: ['not', 'an', 'object'] }],
      ['metadata', { metadata: null }],
      ['metadata', { metadata: { blob: 'x'.repeat(70_000) } }],
      ['version', { version: 3 }],
    ])('answers 400 naming %s', async (path, overrides) => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.post(PROMPTS, aPrompt(overrides)), 400, 'validation_failed', [path]);
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data).toEqual([]);
    });

    it('replays a create sent again with the same Idempotency-Key', async () => {
      const { api } = await inNewProject(ctx.api);
      const keyed = api.withIdempotencyKey(`prm-${Date.now()}`);
      const input = aPrompt();
      const first = await keyed.post<Answer<'createPrompt', 201>>(PROMPTS, input);
      const again = await keyed.post<Answer<'createPrompt', 201>>(PROMPTS, input);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body.id).toBe(first.body.id);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data).toHaveLength(1);
    });
  });

  describe('versions', () => {
    it('writes a new version for a change and keeps the old one readable', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { labels: ['draft'] });
      const updated = await put(api, prompt.id, { content: 'A drone shot of {{place}}', labels: ['final'] });
      expect(updated.status).toBe(200);
      expect(updated.headers.get('etag')).toBe(`"${prompt.id}:2"`);
      expect(updated.body).toMatchObject({
        id: prompt.id,
        identifier: prompt.identifier,
        name: prompt.name,
        version: 2,
        content: 'A drone shot of {{place}}',
        labels: ['final'],
        variables: ['place'],
      });
      const v1 = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`, { version: 1 });
      expect(v1.status).toBe(200);
      expect(v1.body).toMatchObject({ version: 1, content: prompt.content, labels: ['draft'], variables: prompt.variables });
      expect(v1.headers.get('etag')).toBe(`"${prompt.id}:1"`);
      expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body).toEqual(updated.body);
    });

    it('writes no version when nothing changes', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { labels: ['a', 'b'], metadata: { x: 1, y: 2 } });
      for (const body of [{}, { name: prompt.name, content: prompt.content }, { labels: ['b', 'a'], metadata: { y: 2, x: 1 } }]) {
        const response = await put(api, prompt.id, body);
        expect(response.status).toBe(200);
        expect(response.body.version).toBe(1);
      }
      const versions = await api.get<Answer<'listPromptVersions'>>(`${PROMPTS}/${prompt.id}/versions`);
      expect(versions.body.data.map((v) => v.version)).toEqual([1]);
      const activity = await api.get<Answer<'listPromptActivity'>>(`${PROMPTS}/${prompt.id}/activity`);
      expect(activity.body.data.map((a) => a.action)).toEqual(['created']);
    });

    it('replaces metadata wholesale rather than merging it', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { metadata: { keep: 1, drop: 2 } });
      const response = await put(api, prompt.id, { metadata: { keep: 1 } });
      expect(response.body).toMatchObject({ version: 2, metadata: { keep: 1 } });
    });

    it('lists versions newest first, paged without repeats', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      for (let i = 2; i <= 5; i++) expect((await put(api, prompt.id, { content: `take ${i}` })).body.version).toBe(i);
      const first = await api.get<Answer<'listPromptVersions'>>(`${PROMPTS}/${prompt.id}/versions`, { limit: 3 });
      expect(first.body.data.map((v) => v.version)).toEqual([5, 4, 3]);
      expect(first.body.data[0]).toEqual({
        promptId: prompt.id,
        version: 5,
        name: prompt.name,
        content: 'take 5',
        labels: [],
        metadata: {},
        variables: [],
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      const second = await api.get<Answer<'listPromptVersions'>>(`${PROMPTS}/${prompt.id}/versions`, { limit: 3, cursor: first.body.nextCursor ?? undefined });
      expect(second.body.data.map((v) => v.version)).toEqual([2, 1]);
      expect(second.body.nextCursor).toBeNull();
    });

    it('answers 404 for a version that does not exist and 400 for one that is not a positive integer', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`, { version: 2 }), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`, { version: 0 }), 400, 'validation_failed', ['version']);
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`, { version: 'latest' }), 400, 'validation_failed', ['version']);
    });

    it('honours If-Match: a stale version is 412 and changes nothing', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      const ok = await put(api, prompt.id, { content: 'second' }, { 'If-Match': `"${prompt.id}:1"` });
      expect(ok.status).toBe(200);
      expectProblem(await put(api, prompt.id, { content: 'third' }, { 'If-Match': '"1"' }), 412, 'precondition_failed');
      const current = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`);
      expect(current.body).toMatchObject({ version: 2, content: 'second' });
      expectProblem(await del(api, prompt.id, { 'If-Match': '"1"' }), 412, 'precondition_failed');
      expect((await api.get(`${PROMPTS}/${prompt.id}`)).status).toBe(200);
    });

    it.each([
      ['identifier', { identifier: 'new-id' }],
      ['type', { type: 'text-to-text' }],
      ['id', { id: 'prm_x' }],
      ['colour', { colour: 'red' }],
      ['name', { name: null }],
    ])('PUT refuses %s with 400 and changes nothing', async (path, body) => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      expectProblem(await put(api, prompt.id, { content: 'changed', ...body }), 400, 'validation_failed', [path]);
      expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body).toEqual(prompt);
    });
  });

  describe('by identifier', () => {
    it('finds the live prompt, also at an older version', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { identifier: 'opening-scene' });
      await put(api, prompt.id, { content: 'v2' });
      const latest = await api.get<Answer<'getPromptByIdentifier'>>(`${PROMPTS}/by-identifier/opening-scene`);
      expect(latest.status).toBe(200);
      expect(latest.body).toMatchObject({ id: prompt.id, version: 2, content: 'v2' });
      expect(latest.headers.get('etag')).toBe(`"${prompt.id}:2"`);
      const old = await api.get<Answer<'getPromptByIdentifier'>>(`${PROMPTS}/by-identifier/opening-scene`, { version: 1 });
      expect(old.body).toMatchObject({ id: prompt.id, version: 1, content: prompt.content });
      expectProblem(await api.get(`${PROMPTS}/by-identifier/no-such-scene`), 404, 'not_found');
    });
  });

  describe('soft delete', () => {
    it('hides the prompt everywhere but includeDeleted, and a second DELETE is 404', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { identifier: 'doomed' });
      const deleted = await del(api, prompt.id);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id: prompt.id, deleted: true, deletedAt: expect.stringMatching(ISO_MILLIS_UTC) });

      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/by-identifier/doomed`), 404, 'not_found');
      expectProblem(await del(api, prompt.id), 404, 'not_found');
      expectProblem(await put(api, prompt.id, { content: 'too late' }), 404, 'not_found');
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS)).body.data).toEqual([]);

      const shown = await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`, { includeDeleted: true });
      expect(shown.status).toBe(200);
      expect(shown.body.deletedAt).toBe(deleted.body.deletedAt);
      const listed = await api.get<Answer<'listPrompts'>>(PROMPTS, { includeDeleted: true });
      expect(listed.body.data.map((p) => [p.id, p.deletedAt])).toEqual([[prompt.id, deleted.body.deletedAt]]);
    });

    it('frees the identifier for a new prompt, explicit or derived', async () => {
      const { api } = await inNewProject(ctx.api);
      const first = await createPrompt(api, { name: 'Reused Name', identifier: 'reused-name' });
      await del(api, first.id);
      const explicit = await api.post<Answer<'createPrompt', 201>>(PROMPTS, aPrompt({ identifier: 'reused-name' }));
      expect(explicit.status).toBe(201);
      await del(api, explicit.body.id);
      expect((await createPrompt(api, { name: 'Reused Name' })).identifier).toBe('reused-name');
    });

    it('keeps versions and activity readable', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      await put(api, prompt.id, { name: 'Renamed' });
      await del(api, prompt.id);
      const versions = await api.get<Answer<'listPromptVersions'>>(`${PROMPTS}/${prompt.id}/versions`);
      expect(versions.body.data.map((v) => v.version)).toEqual([2, 1]);
      const activity = await api.get<Answer<'listPromptActivity'>>(`${PROMPTS}/${prompt.id}/activity`);
      expect(activity.body.data.map((a) => a.action)).toEqual(['deleted', 'updated', 'created']);
    });
  });

  describe('activity', () => {
    it('records created, updated and deleted with from/to changes and the acting key, newest first', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api, { name: 'Before', labels: ['a'] });
      await put(api, prompt.id, { name: 'After', content: prompt.content });
      const deleted = await del(api, prompt.id);
      const response = await api.get<Answer<'listPromptActivity'>>(`${PROMPTS}/${prompt.id}/activity`);
      expect(response.status).toBe(200);
      const [del_, upd, cre] = response.body.data;
      const actor = { type: 'api_key', id: expect.any(String) };
      expect(cre).toEqual({
        id: expect.stringMatching(/^act_\S+$/),
        promptId: prompt.id,
        action: 'created',
        version: 1,
        actor,
        at: prompt.createdAt,
        changes: {
          name: { from: null, to: 'Before' },
          content: { from: null, to: prompt.content },
          type: { from: null, to: 'text-to-video' },
          identifier: { from: null, to: prompt.identifier },
          labels: { from: null, to: ['a'] },
          metadata: { from: null, to: {} },
        },
      });
      expect(upd).toMatchObject({ action: 'updated', version: 2, changes: { name: { from: 'Before', to: 'After' } } });
      expect(Object.keys(upd.changes)).toEqual(['name']);
      expect(del_).toMatchObject({ action: 'deleted', version: 2, changes: { deletedAt: { from: null, to: deleted.body.deletedAt } } });
      expect(new Set([cre.actor.id, upd.actor.id, del_.actor.id]).size).toBe(1);
      expect(cre.actor.id).not.toContain(ctx.stack.apiKey);
    });

    it('caps a page with limit and pages through the rest', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      for (let i = 0; i < 4; i++) await put(api, prompt.id, { content: `edit ${i}` });
      const first = await api.get<Answer<'listPromptActivity'>>(`${PROMPTS}/${prompt.id}/activity`, { limit: 2 });
      expect(first.body.data.map((a) => a.version)).toEqual([5, 4]);
      const rest = await api.get<Answer<'listPromptActivity'>>(`${PROMPTS}/${prompt.id}/activity`, { limit: 200, cursor: first.body.nextCursor ?? undefined });
      expect(rest.body.data.map((a) => a.version)).toEqual([3, 2, 1]);
      expect(rest.body.nextCursor).toBeNull();
    });
  });

  describe('methods', () => {
    it('answers 405 with Allow for PATCH and POST on a prompt', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      const patch = await api.request('PATCH', `${PROMPTS}/${prompt.id}`, { json: { name: 'x' } });
      expectProblem(patch, 405, 'method_not_allowed');
      expect(patch.headers.get('allow')).toBe('GET, PUT, DELETE');
      expectProblem(await api.post(`${PROMPTS}/${prompt.id}`, { name: 'x' }), 405, 'method_not_allowed');
    });
  });
});
