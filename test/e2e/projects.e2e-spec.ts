import { expect } from '@jest/globals';
import { aProject, unique } from '@cinetrace/testing';
import { ISO_MILLIS_UTC, PROJECT_KEY, expectProblem } from './support/expectations';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

describe('Projects: create and read', () => {
  const ctx = useStack();
  const create = (body: unknown) => ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', body);
  const byName = async (name: string) => (await ctx.api.get<Answer<'listProjects'>>('/api/v1/projects', { args: JSON.stringify({ name }) })).body.data;

  it('creates a project: 201, Location, and the project in the body', async () => {
    const before = Date.now();
    const input = aProject({ description: 'Text-to-video shots for the spring campaign' });
    const response = await create(input);
    const after = Date.now();

    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^prj_\S+$/),
      name: input.name,
      description: input.description,
      key: expect.stringMatching(PROJECT_KEY),
      createdAt: expect.stringMatching(ISO_MILLIS_UTC),
      updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
    });
    const location = new URL(response.headers.get('location') ?? '', ctx.stack.baseUrl);
    expect(location.pathname).toBe(`/api/v1/projects/${response.body.id}`);
    // The server's clock and this one are the same machine's: the time must be now.
    const createdAt = Date.parse(response.body.createdAt);
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(createdAt).toBeLessThanOrEqual(after + 1000);
    expect(Date.parse(response.body.updatedAt)).toBeGreaterThanOrEqual(createdAt);
  });

  it('reads back the created project at its Location', async () => {
    const created = await create(aProject());
    const read = await ctx.api.get(created.headers.get('location')!);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it('defaults description to an empty string', async () => {
    const response = await create({ name: unique('No description') });
    expect(response.status).toBe(201);
    expect(response.body.description).toBe('');
  });

  it('trims the name', async () => {
    const name = unique('Trimmed');
    const response = await create({ name: `  \t${name}  ` });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });

  it('counts the 100-character limit after trimming, and keeps non-ASCII names intact', async () => {
    const long = `${'n'.repeat(99)}é`;
    const response = await create({ name: `   ${long}   ` });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(long);
  });

  it('accepts a 2000-character description', async () => {
    const response = await create(aProject({ description: 'd'.repeat(2000) }));
    expect(response.status).toBe(201);
    expect(response.body.description).toHaveLength(2000);
  });

  it('accepts the same name twice (names need not be unique) with distinct ids and keys', async () => {
    const name = unique('Twin');
    const first = await create({ name });
    const second = await create({ name });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(second.body.key).not.toBe(first.body.key);
  });

  it('gives ids that sort in creation order', async () => {
    const first = await create(aProject());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await create(aProject());
    expect(first.body.id < second.body.id).toBe(true);
  });

  describe('validation', () => {
    const invalidNames: Array<[string, unknown]> = [
      ['missing', undefined],
      ['empty', ''],
      ['whitespace only', '   \t '],
      ['101 characters', 'n'.repeat(101)],
      ['a number', 5],
      ['null', null],
    ];
    it.each(invalidNames)('rejects a name that is %s: 400 naming `name`', async (_label, name) => {
      const body: Record<string, unknown> = { description: 'x' };
      if (name !== undefined) body.name = name;
      expectProblem(await create(body), 400, 'validation_failed', ['name']);
    });

    it.each([
      ['2001 characters', 'd'.repeat(2001)],
      ['a number', 42],
    ])('rejects a description of %s: 400 naming `description`', async (_label, description) => {
      expectProblem(await create(aProject({ description })), 400, 'validation_failed', ['description']);
    });

    const invalidKeys: Array<[string, unknown]> = [
      ['too short', 'ab'],
      ['starting with a digit', '1abc'],
      ['ending with -', 'abc-'],
      ['in capitals', 'ABC'],
      ['49 characters', `a${'b'.repeat(48)}`],
      ['with an underscore', 'a_b'],
      ['empty', ''],
      ['a number', 123],
    ];
    it.each(invalidKeys)('rejects a key %s: 400 naming `key`', async (_label, key) => {
      expectProblem(await create(aProject({ key })), 400, 'validation_failed', ['key']);
    });

    it('rejects an unknown field, naming it, and creates nothing', async () => {
      const project = aProject({ color: 'teal' });
      expectProblem(await create(project), 400, 'validation_failed', ['color']);
      expect(await byName(project.name as string)).toEqual([]);
    });

    it('names every offending field at once', async () => {
      const response = await create({ name: '', description: 'd'.repeat(2001), key: 'ab', color: 'teal' });
      expectProblem(response, 400, 'validation_failed', ['name', 'description', 'key', 'color']);
    });
  });

  describe('keys', () => {
    it.each(['abc', `k${'0'.repeat(47)}`, 'shot-2-final'])('accepts the explicit key %s', async (key) => {
      const response = await create(aProject({ key }));
      expect(response.status).toBe(201);
      expect(response.body.key).toBe(key);
    });

    it('answers 409 conflict for an explicit key already taken, and creates nothing', async () => {
      const key = `taken-${unique('k')}`;
      expect((await create(aProject({ key }))).status).toBe(201);
      const second = aProject({ key });
      expectProblem(await create(second), 409, 'conflict');
      expect(await byName(second.name as string)).toEqual([]);
    });

    it('derives the key from the name, adding -2, -3 on collision', async () => {
      const keys: string[] = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await create({ name: 'Video Gen / Prod' });
        expect(response.status).toBe(201);
        keys.push(response.body.key);
      }
      expect(keys).toEqual(['video-gen-prod', 'video-gen-prod-2', 'video-gen-prod-3']);
    });

    it('derives around a key that was chosen explicitly', async () => {
      const word = unique('storyboard').replace(/[^a-z0-9-]/g, '');
      expect((await create(aProject({ key: word }))).status).toBe(201);
      const derived = await create({ name: word.replace(/-/g, ' ') });
      expect(derived.status).toBe(201);
      expect(derived.body.key).toBe(`${word}-2`);
    });

    it.each([
      ['digits first', '2026 Campaign'],
      ['no letters or digits', '!!! ???'],
      ['accents', 'Ünïcödé Prōject'],
      ['only non-Latin script', '映像生成'],
      ['100 characters', `Long ${'word '.repeat(18)}final`],
    ])('derives a valid key from a name with %s', async (_label, name) => {
      const response = await create({ name });
      expect(response.status).toBe(201);
      expect(response.body.key).toMatch(PROJECT_KEY);
      expect(response.body.key.length).toBeLessThanOrEqual(48);
    });
  });

  describe('GET /api/v1/projects/{id}', () => {
    it('answers 404 not_found for an id that does not exist', async () => {
      const created = await create(aProject());
      const id: string = created.body.id;
      const last = id.slice(-1);
      const unknown = `${id.slice(0, -1)}${last === '0' ? '1' : '0'}`;
      expectProblem(await ctx.api.get(`/api/v1/projects/${unknown}`), 404, 'not_found');
    });

    it('answers 404 not_found for an id of another shape', async () => {
      expectProblem(await ctx.api.get('/api/v1/projects/does-not-exist'), 404, 'not_found');
    });
  });

  describe('methods the route does not have', () => {
    const cases: Array<[string, 'item' | 'collection']> = [
      ['PUT', 'item'],
      ['DELETE', 'item'],
      ['PATCH', 'item'],
      ['PUT', 'collection'],
      ['DELETE', 'collection'],
    ];
    it.each(cases)('answers 405 method_not_allowed with Allow to %s on the %s', async (method, target) => {
      const created = await create(aProject());
      const path = target === 'item' ? `/api/v1/projects/${created.body.id}` : '/api/v1/projects';
      const response = await ctx.api.request(method, path, { json: { name: 'Renamed' } });
      expectProblem(response, 405, 'method_not_allowed');
      const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim().toUpperCase());
      expect(allow).toContain('GET');
      expect(allow).not.toContain(method);
      if (target === 'collection') expect(allow).toContain('POST');
      // Nothing was changed or removed.
      const read = await ctx.api.get<Answer<'getProject'>>(`/api/v1/projects/${created.body.id}`);
      expect(read.body).toEqual(created.body);
    });
  });
});
