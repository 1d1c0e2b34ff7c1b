import { aProject, unique } from '@cinetrace/testing';
import { ISO_MILLIS_UTC, expectProblem, expectValidationFailure } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import { useStack } from './support/stack-hooks';
import { Answer, Item } from './support/api-types';

const PROJECTS = '/api/v1/projects';

/** The cursor with one alphanumeric character near its middle replaced by another. */
function flipOneCharacter(cursor: string): string {
  for (let i = Math.floor(cursor.length / 2); i < cursor.length; i += 1) {
    if (/[A-Za-z0-9]/.test(cursor[i])) {
      const replacement = cursor[i] === 'A' ? 'B' : 'A';
      return cursor.slice(0, i) + replacement + cursor.slice(i + 1);
    }
  }
  throw new Error(`no alphanumeric character to flip in ${cursor}`);
}

describe('Lists: GET /api/v1/projects', () => {
  // Its own stack: the tests list every project of the organization (all of them on one page of 200).
  const ctx = useStack({ own: true });
  /** Ids of the projects made before the tests, oldest first. */
  const seeded: string[] = [];
  const SEEDED = 55; // more than the default page of 50

  beforeAll(async () => {
    for (let i = 0; i < SEEDED; i += 1) {
      const response = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, aProject({ name: unique('Seeded') }));
      expect(response.status).toBe(201);
      seeded.push(response.body.id);
    }
  }, 120_000);

  const list = (query: Record<string, string | number | undefined> = {}) => ctx.api.get<Answer<'listProjects'>>(PROJECTS, query);

  it('answers the envelope { data, nextCursor } with full projects', async () => {
    const response = await list({ limit: 2 });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(Object.keys(response.body).sort()).toEqual(['data', 'nextCursor']);
    expect(typeof response.body.nextCursor).toBe('string');
    const first = response.body.data[0];
    expect((await ctx.api.get<Answer<'getProject'>>(`${PROJECTS}/${first.id}`)).body).toEqual(first);
    expect(first.createdAt).toMatch(ISO_MILLIS_UTC);
  });

  it('gives 50 items by default, with a cursor to the rest', async () => {
    const response = await list();
    expect(response.body.data).toHaveLength(50);
    expect(typeof response.body.nextCursor).toBe('string');
  });

  it('honours limit 1 and limit 200, with nextCursor null on the last page', async () => {
    expect((await list({ limit: 1 })).body.data).toHaveLength(1);
    const all = await list({ limit: 200 });
    expect(all.body.data.length).toBeGreaterThanOrEqual(SEEDED);
    expect(all.body.data.length).toBeLessThanOrEqual(200);
    expect(all.body.nextCursor).toBeNull();
  });

  it('lists newest first', async () => {
    const listed: string[] = ids((await list({ limit: 200 })).body.data);
    const positions = seeded.map((id) => listed.indexOf(id));
    expect(positions).not.toContain(-1);
    expect(positions).toEqual([...positions].sort((a, b) => b - a));
  });

  it.each(['0', '201', 'abc', '1.5', '-1'])('rejects limit=%s: 400 naming `limit`', async (limit) => {
    expectProblem(await list({ limit }), 400, 'validation_failed', ['limit']);
  });

  it('pages through everything with a small limit, without repeats or skips', async () => {
    const everything = ids((await list({ limit: 200 })).body.data);
    const { items } = await pageThrough<Item<'listProjects'>>(ctx.api, PROJECTS, { limit: 7 });
    expect(ids(items)).toEqual(everything);
  });

  it('neither skips nor repeats while projects are created between pages, and shows none of them', async () => {
    const before = ids((await list({ limit: 200 })).body.data);
    const createdMeanwhile: string[] = [];
    const { items } = await pageThrough<Item<'listProjects'>>(ctx.api, PROJECTS, { limit: 5 }, async () => {
      const response = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, aProject());
      expect(response.status).toBe(201);
      createdMeanwhile.push(response.body.id);
    });
    expect(createdMeanwhile.length).toBeGreaterThan(3);
    expect(ids(items)).toEqual(before);
  });

  describe('cursor', () => {
    let cursor: string;
    beforeAll(async () => {
      cursor = (await list({ limit: 2 })).body.nextCursor!;
    });

    it('accepts its own cursor', async () => {
      const next = await list({ limit: 2, cursor });
      expect(next.status).toBe(200);
      expect(next.body.data).toHaveLength(2);
    });

    it.each([
      ['one character changed', (c: string) => flipOneCharacter(c)],
      ['truncated', (c: string) => c.slice(0, Math.ceil(c.length / 2))],
      ['with characters appended', (c: string) => `${c}AAAA`],
      ['a made-up string', () => 'bm90LWEtY3Vyc29y'],
      ['not base64 at all', () => '%%%***'],
    ])('rejects a cursor %s: 400 invalid_cursor', async (_label, tamper) => {
      const tampered = tamper(cursor);
      expect(tampered).not.toBe(cursor);
      expectProblem(await list({ limit: 2, cursor: tampered }), 400, 'invalid_cursor');
    });
  });

  describe('filters and args', () => {
    const twinName = unique('Filter twin');
    const otherName = unique('Filter other');
    const twins: string[] = [];
    let other: string;

    beforeAll(async () => {
      for (let i = 0; i < 3; i += 1) twins.push((await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, { name: twinName })).body.id);
      other = (await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, { name: otherName })).body.id;
    });

    it('filters by exact name through args, newest first', async () => {
      const response = await list({ args: JSON.stringify({ name: twinName }) });
      expect(response.status).toBe(200);
      expect(ids(response.body.data)).toEqual([...twins].reverse());
      expect(response.body.nextCursor).toBeNull();
    });

    it('filters by name given as a query parameter', async () => {
      expect(ids((await list({ name: otherName })).body.data)).toEqual([other]);
    });

    it('lets the explicit query parameter win over the same key in args', async () => {
      const response = await list({ name: otherName, args: JSON.stringify({ name: twinName }) });
      expect(ids(response.body.data)).toEqual([other]);
    });

    it('pages within a filter', async () => {
      const { items } = await pageThrough<Item<'listProjects'>>(ctx.api, PROJECTS, { limit: 1, args: JSON.stringify({ name: twinName }) });
      expect(ids(items)).toEqual([...twins].reverse());
    });

    it('accepts empty args as no filter', async () => {
      const filtered = await list({ limit: 200, args: '{}' });
      expect(filtered.status).toBe(200);
      expect(ids(filtered.body.data)).toEqual(ids((await list({ limit: 200 })).body.data));
    });

    it('matches the name exactly: no prefix, case or wildcard matching', async () => {
      for (const name of [twinName.slice(0, -1), twinName.toUpperCase(), `${twinName.slice(0, -1)}%`, `${twinName.slice(0, -1)}_`]) {
        expect((await list({ args: JSON.stringify({ name }) })).body.data).toEqual([]);
      }
    });

    it('treats quotes in a filter value as data, not query text', async () => {
      const response = await list({ args: JSON.stringify({ name: "x' OR '1'='1" }) });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual([]);
    });

    it.each([
      ['an unknown key', '{"colour":"teal"}'],
      ['a __proto__ key', '{"__proto__":{}}'],
      ['an array', '[1]'],
      ['a string', '"str"'],
      ['null', 'null'],
      ['text that is not JSON', 'not json'],
      ['a wrong type', '{"name":5}'],
    ])('rejects args that is %s: 400 validation_failed', async (_label, args) => {
      expectValidationFailure(await list({ args }));
    });

    it('rejects an unknown query parameter, naming it', async () => {
      const response = await list({ colour: 'teal' });
      expectValidationFailure(response);
      expect(JSON.stringify(response.body.errors)).toContain('colour');
    });
  });
});
