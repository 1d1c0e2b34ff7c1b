import { expectProblem } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import { PROMPTS, aPrompt, createPrompt, del, inNewProject, put } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer, Item } from './support/api-types';

describe('Prompts: lists, isolation and concurrency', () => {
  const ctx = useStack();

  describe('list filters', () => {
    it('filters by type, label, q and includeDeleted, in the query and in args', async () => {
      const { api } = await inNewProject(ctx.api);
      const hero = await createPrompt(api, { name: 'Hero Shot', type: 'text-to-video', labels: ['prod', 'hero'] });
      const still = await createPrompt(api, { name: 'Still Frame', type: 'text-to-image', labels: ['prod'] });
      const odd = await createPrompt(api, { name: 'Odd 100%_done', identifier: 'odd-one', type: 'text-to-image' });
      const gone = await createPrompt(api, { name: 'Gone Shot', type: 'text-to-video', labels: ['hero'] });
      await del(api, gone.id);

      const list = async (query: Record<string, string | number | boolean>) => {
        const response = await api.get<Answer<'listPrompts'>>(PROMPTS, query);
        expect(response.status).toBe(200);
        return ids(response.body.data);
      };
      expect(await list({})).toEqual([odd.id, still.id, hero.id]);
      expect(await list({ type: 'text-to-image' })).toEqual([odd.id, still.id]);
      expect(await list({ label: 'hero' })).toEqual([hero.id]);
      expect(await list({ label: 'hero', includeDeleted: true })).toEqual([gone.id, hero.id]);
      expect(await list({ q: 'SHOT' })).toEqual([hero.id]);
      expect(await list({ q: 'odd-o' })).toEqual([odd.id]);
      expect(await list({ q: '%_' })).toEqual([odd.id]);
      expect(await list({ q: '_' })).toEqual([odd.id]);
      expect(await list({ args: JSON.stringify({ type: 'text-to-video', includeDeleted: true }) })).toEqual([gone.id, hero.id]);
      // An explicit parameter wins over the same key in args.
      expect(await list({ type: 'text-to-image', args: JSON.stringify({ type: 'text-to-video' }) })).toEqual([odd.id, still.id]);
    });

    it('refuses a bad type, a bad includeDeleted, unknown filters and non-object args', async () => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.get(PROMPTS, { type: 'text-to-smell' }), 400, 'validation_failed', ['type']);
      expectProblem(await api.get(PROMPTS, { includeDeleted: 'yes' }), 400, 'validation_failed', ['includeDeleted']);
      expectProblem(await api.get(PROMPTS, { colour: 'red' }), 400, 'validation_failed', ['colour']);
      expectProblem(await api.get(PROMPTS, { args: JSON.stringify({ colour: 'red' }) }), 400, 'validation_failed', ['args.colour']);
      expectProblem(await api.get(PROMPTS, { args: '{"__proto__":{"q":"x"}}' }), 400, 'validation_failed');
      expectProblem(await api.get(PROMPTS, { args: '["type"]' }), 400, 'validation_failed', ['args']);
      expectProblem(await api.get(PROMPTS, { args: JSON.stringify({ includeDeleted: 'true' }) }), 400, 'validation_failed', ['args.includeDeleted']);
    });

    it('pages newest first without repeats or gaps while prompts are being added', async () => {
      const { api } = await inNewProject(ctx.api);
      const created = [];
      for (let i = 0; i < 7; i++) created.push((await createPrompt(api)).id);
      const added: string[] = [];
      const { items } = await pageThrough<Item<'listPrompts'>>(api, PROMPTS, { limit: 2 }, async () => {
        added.push((await createPrompt(api)).id);
      });
      expect(ids(items)).toEqual([...created].reverse());
      expect(added.length).toBeGreaterThan(0);
    });
  });

  describe('isolation', () => {
    it("answers 404 on every route for another project's prompt and leaves it untouched", async () => {
      const owner = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const prompt = await createPrompt(owner.api, { identifier: 'private-shot' });
      const api = other.api;
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`, { version: 1 }), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}`, { includeDeleted: true }), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/by-identifier/private-shot`), 404, 'not_found');
      expectProblem(await put(api, prompt.id, { content: 'hijacked' }), 404, 'not_found');
      expectProblem(await del(api, prompt.id), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}/versions`), 404, 'not_found');
      expectProblem(await api.get(`${PROMPTS}/${prompt.id}/activity`), 404, 'not_found');
      expect((await api.get<Answer<'listPrompts'>>(PROMPTS, { includeDeleted: true })).body.data).toEqual([]);
      expect((await owner.api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body).toEqual(prompt);
    });

    it('keeps identifiers per project', async () => {
      const a = await inNewProject(ctx.api);
      const b = await inNewProject(ctx.api);
      expect((await a.api.post(PROMPTS, aPrompt({ identifier: 'shared-name' }))).status).toBe(201);
      expect((await b.api.post(PROMPTS, aPrompt({ identifier: 'shared-name' }))).status).toBe(201);
    });
  });

  describe('concurrency', () => {
    it('gives one 201 and 409s to parallel creates with the same explicit identifier', async () => {
      const { api } = await inNewProject(ctx.api);
      const responses = await Promise.all(Array.from({ length: 20 }, () => api.post(PROMPTS, aPrompt({ identifier: 'contested' }))));
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      const listed = await api.get<Answer<'listPrompts'>>(PROMPTS);
      expect(listed.body.data.map((p) => p.identifier)).toEqual(['contested']);
    });

    it('gives parallel creates deriving the same identifier distinct suffixes', async () => {
      const { api } = await inNewProject(ctx.api);
      const responses = await Promise.all(Array.from({ length: 10 }, () => api.post<Answer<'createPrompt', 201>>(PROMPTS, aPrompt({ name: 'Crowded Name' }))));
      expect(responses.map((r) => r.status)).toEqual(Array<number>(10).fill(201));
      const identifiers = new Set(responses.map((r) => r.body.identifier));
      expect(identifiers.size).toBe(10);
      expect(identifiers).toContain('crowded-name');
    });

    it('applies parallel PUTs one after another: every change lands in its own version', async () => {
      const { api } = await inNewProject(ctx.api);
      const prompt = await createPrompt(api);
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => put(api, prompt.id, { content: `writer ${i}` })));
      expect(responses.map((r) => r.status)).toEqual(Array<number>(8).fill(200));
      expect(new Set(responses.map((r) => r.body.version))).toEqual(new Set([2, 3, 4, 5, 6, 7, 8, 9]));
      const versions = await pageThrough<Item<'listPromptVersions'>>(api, `${PROMPTS}/${prompt.id}/versions`);
      expect(versions.items.map((v) => v.version)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    });
  });
});
