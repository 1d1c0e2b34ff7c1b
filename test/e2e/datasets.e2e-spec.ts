import { expect } from '@jest/globals';
import { ApiResponse } from '@cinetrace/testing';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { ids, pageThrough } from './support/lists';
import {
  DATASETS,
  Json,
  type DatasetItemView,
  type DatasetView,
  aDataset,
  allItems,
  anItem,
  append,
  appendOk,
  createDataset,
  datasetPath,
  deleteDataset,
  expectedItem,
  itemsPath,
  listDatasetIds,
  readDataset,
  someItems,
} from './support/datasets';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer, Item, Problem } from './support/api-types';

jest.setTimeout(60_000);

const KiB = 1024;
const MiB = 1024 * KiB;

/** A string whose JSON serialisation is exactly `bytes` bytes (the two quotes included). */
const jsonStringOfBytes = (bytes: number): string => 'x'.repeat(bytes - 2);

/** A metadata object whose JSON serialisation is exactly `bytes` bytes. */
const metadataOfBytes = (bytes: number): Json => ({ blob: 'm'.repeat(bytes - Buffer.byteLength('{"blob":""}')) });

/** A 400 validation_failed whose errors name each of `paths` (a RegExp when the exact form may vary). */
function expectInvalid(response: ApiResponse, ...paths: Array<string | RegExp>): asserts response is ApiResponse<Problem> {
  expectProblem(response, 400, 'validation_failed');
  const named: string[] = Array.isArray(response.body?.errors) ? response.body.errors.map((e) => e.path) : [];
  expect(named.length).toBeGreaterThan(0);
  for (const path of paths) {
    const hit = named.some((p) => (typeof path === 'string' ? p === path : path.test(p)));
    if (!hit) throw new Error(`expected an error naming ${String(path)}, got paths ${JSON.stringify(named)}`);
  }
}

describe('Datasets', () => {
  const ctx = useStack();

  describe('create', () => {
    it('answers 201 with the dataset at version 1, its Location, and the items readable in order', async () => {
      const { api, projectId } = await inNewProject(ctx.api);
      const items = [anItem('a', { metadata: { camera: 'dolly', fps: 24 } }), { input: 'a lighthouse in fog' }, anItem('c', { expected: null })];
      const body = aDataset({ description: 'Shots for the camera-move scorer', items });
      const response = await api.post<Answer<'createDataset', 201>>(DATASETS, body);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({
        id: expect.stringMatching(/^ds_\S+$/),
        projectId,
        name: body.name,
        description: 'Shots for the camera-move scorer',
        itemCount: 3,
        version: 1,
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      const id = response.body.id;
      expect(response.headers.get('location')).toBe(`/api/v1/datasets/${id}`);
      expect(await readDataset(api, id)).toEqual(response.body);

      const stored = await allItems(api, id);
      expect(stored).toEqual(items.map((item, index) => expectedItem(item, id, index)));
      expect(new Set(ids(stored)).size).toBe(3);
    });

    it('trims the name, defaults the description to "" and starts with no items', async () => {
      const { api } = await inNewProject(ctx.api);
      const response = await api.post<Answer<'createDataset', 201>>(DATASETS, { name: '  Camera moves v1  ' });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'Camera moves v1', description: '', itemCount: 0, version: 1 });
      const items = await api.get<Answer<'listDatasetItems'>>(itemsPath(response.body.id));
      expect(items.status).toBe(200);
      expect(items.body).toEqual({ data: [], nextCursor: null });
    });

    it('keeps input and expected as the exact JSON sent, null, scalars and arrays included', async () => {
      const { api } = await inNewProject(ctx.api);
      const items: Json[] = [
        { input: null },
        { input: 'just a string', expected: '' },
        { input: 42, expected: 0 },
        { input: false, expected: false },
        { input: [1, 'two', { three: [3] }, null], expected: [] },
        { input: { nested: { deep: { list: [{ a: 1.5 }] } }, emoji: '🎬 ünïcödé' }, expected: { ok: true }, metadata: { tags: ['x'], n: null } },
        { input: {}, expected: null, metadata: {} },
        { input: '2026-11-22T04:00:00.000Z', expected: '123' },
      ];
      const dataset = await createDataset(api, { items });
      expect(dataset.itemCount).toBe(items.length);
      const stored = await allItems(api, dataset.id);
      expect(stored).toEqual(items.map((item, index) => expectedItem(item, dataset.id, index)));
      // toEqual treats undefined and absent alike: these two must really be there as null.
      expect(stored[0]).toHaveProperty('input', null);
      expect(stored[0]).toHaveProperty('expected', null);
      expect(stored.map((item) => typeof item.input)).toEqual(['object', 'string', 'number', 'boolean', 'object', 'object', 'object', 'string']);
    });

    it('keeps object keys named like built-ins (toString, valueOf, hasOwnProperty) in input, expected and metadata', async () => {
      const { api } = await inNewProject(ctx.api);
      const item = {
        input: { toString: 'cut', nested: { valueOf: 3, kept: true } },
        expected: { hasOwnProperty: [1], valueOf: null, isPrototypeOf: 'no' },
        metadata: { toLocaleString: 'en-GB' },
      };
      const dataset = await createDataset(api, { items: [item] });
      await appendOk(api, dataset.id, [item]);
      const stored = await allItems(api, dataset.id);
      expect(stored).toEqual([expectedItem(item, dataset.id, 0), expectedItem(item, dataset.id, 1)]);
    });

    it('keeps constructor and prototype keys in input and metadata as data', async () => {
      const { api } = await inNewProject(ctx.api);
      const item = { input: { shot: { constructor: 'x' } }, metadata: { prototype: 1 } };
      const dataset = await createDataset(api, { items: [{ input: { ok: 1 } }, item] });
      expect((await allItems(api, dataset.id))[1]).toEqual(expectedItem(item, dataset.id, 1));
    });

    it('counts the name in characters: 200 emoji are a valid name, read back intact', async () => {
      const { api } = await inNewProject(ctx.api);
      const name = '🎬'.repeat(200);
      const response = await api.post<Answer<'createDataset', 201>>(DATASETS, { name });
      expect(response.status).toBe(201);
      expect((await readDataset(api, response.body.id)).name).toBe(name);
      expectInvalid(await api.post(DATASETS, { name: '🎬'.repeat(201) }), 'name');
    });

    it('accepts values right at the limits: 200-character name, 2000-character description, 1000 items, 1 MiB input and expected, 64 KiB metadata', async () => {
      const { api } = await inNewProject(ctx.api);
      const name = 'n'.repeat(200);
      const big = await api.post<Answer<'createDataset', 201>>(DATASETS, {
        name: `  ${name}  `,
        description: 'd'.repeat(2000),
        items: [{ input: jsonStringOfBytes(MiB), expected: jsonStringOfBytes(MiB), metadata: metadataOfBytes(64 * KiB) }],
      });
      expect(big.status).toBe(201);
      expect(big.body).toMatchObject({ name, itemCount: 1, version: 1 });
      expect(big.body.description).toHaveLength(2000);
      const [item] = await allItems(api, big.body.id);
      expect(item.input).toHaveLength(MiB - 2);
      expect(item.expected).toHaveLength(MiB - 2);
      expect(Buffer.byteLength(JSON.stringify(item.metadata))).toBe(64 * KiB);

      const many = someItems(1000, 'many');
      const thousand = await api.post<Answer<'createDataset', 201>>(DATASETS, aDataset({ items: many }));
      expect(thousand.status).toBe(201);
      expect(thousand.body.itemCount).toBe(1000);
      const stored = await allItems(api, thousand.body.id);
      expect(stored.map((i) => i.index)).toEqual(many.map((_, i) => i));
      expect(stored.map((i) => i.input)).toEqual(many.map((i) => i.input));
    });

    it.each([
      ['name', 'it is missing', { name: undefined }],
      ['name', 'it is blank after trimming', { name: '   ' }],
      ['name', 'it has 201 characters', { name: 'n'.repeat(201) }],
      ['name', 'it is not a string', { name: 42 }],
      ['description', 'it has 2001 characters', { description: 'd'.repeat(2001) }],
      ['description', 'it is not a string', { description: 7 }],
      ['items', 'it is not an array', { items: 'not an array' }],
      ['items', 'it has 1001 items', { items: someItems(1001) }],
      ['items[0]', 'an item is a number', { items: [42] }],
      ['items[0]', 'an item is null', { items: [null] }],
      ['items[1].input', 'an item has no input', { items: [anItem(0), { expected: 'no input' }] }],
      ['items[1].colour', 'an item has an unknown field', { items: [anItem(0), anItem(1, { colour: 'red' })] }],
      ['items[0].index', 'an item sets its index', { items: [anItem(0, { index: 5 })] }],
      ['items[0].metadata', 'metadata is an array', { items: [anItem(0, { metadata: ['not', 'an', 'object'] })] }],
      ['items[0].metadata', 'metadata is a string', { items: [anItem(0, { metadata: 'camera=dolly' })] }],
      ['items[0].metadata', 'metadata is null', { items: [anItem(0, { metadata: null })] }],
      ['items[0].metadata', 'metadata is over 64 KiB', { items: [anItem(0, { metadata: metadataOfBytes(64 * KiB + 1) })] }],
      ['items[0].input', 'input is over 1 MiB', { items: [anItem(0, { input: jsonStringOfBytes(MiB + 1) })] }],
      ['items[0].expected', 'expected is over 1 MiB', { items: [anItem(0, { expected: jsonStringOfBytes(MiB + 1) })] }],
      ['colour', 'the body has an unknown field', { colour: 'red' }],
      ['id', 'the body sets the id', { id: 'ds_mine' }],
      ['version', 'the body sets the version', { version: 3 }],
      ['itemCount', 'the body sets itemCount', { itemCount: 10 }],
    ])('answers 400 naming %s when %s, and creates nothing', async (path, _why, overrides) => {
      const { api } = await inNewProject(ctx.api);
      const body = aDataset(overrides);
      if ('name' in overrides && (overrides as Json).name === undefined) delete body.name;
      expectInvalid(await api.post(DATASETS, body), path);
      expect(await listDatasetIds(api)).toEqual([]);
    });

    it('names every offending item in one answer', async () => {
      const { api } = await inNewProject(ctx.api);
      const response = await api.post(DATASETS, aDataset({ items: [anItem(0), { expected: 1 }, anItem(2), anItem(3, { colour: 'red' })] }));
      expectInvalid(response, 'items[1].input', 'items[3].colour');
      expect(response.body.errors!.map((e) => e.path)).not.toContain('items[0].input');
      expect(response.body.errors!.map((e) => e.path)).not.toContain('items[2].input');
    });

    it('replays a create sent again with the same Idempotency-Key, and refuses the key with another body', async () => {
      const { api } = await inNewProject(ctx.api);
      const keyed = api.withIdempotencyKey(`ds-${Date.now()}-${Math.random()}`);
      const body = aDataset({ items: someItems(2) });
      const first = await keyed.post<Answer<'createDataset', 201>>(DATASETS, body);
      const again = await keyed.post<Answer<'createDataset', 201>>(DATASETS, body);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expectProblem(await keyed.post(DATASETS, aDataset()), 422, 'idempotency_key_reused');
      expect(await listDatasetIds(api)).toEqual([first.body.id]);
      expect(await allItems(api, first.body.id)).toHaveLength(2);
    });

    it('needs the project key: 401 project_key_required, and nothing is created', async () => {
      const { api } = await inNewProject(ctx.api);
      expectProblem(await api.withoutHeader('X-Project-Key').post(DATASETS, aDataset()), 401, 'project_key_required');
      expect(await listDatasetIds(api)).toEqual([]);
    });
  });

  describe('get', () => {
    it('answers 404 not_found for an id that does not exist, on every route', async () => {
      const { api } = await inNewProject(ctx.api);
      const missing = 'ds_01jh8z6v9q3m2r7x5c4b1n0k8d';
      expectProblem(await api.get(datasetPath(missing)), 404, 'not_found');
      expectProblem(await api.get(itemsPath(missing)), 404, 'not_found');
      expectProblem(await append(api, missing, [anItem()]), 404, 'not_found');
      expectProblem(await deleteDataset(api, missing), 404, 'not_found');
    });
  });

  describe('append items', () => {
    it('answers 201 { added, itemCount, version }, bumps the version by one and numbers items on from the last', async () => {
      const { api } = await inNewProject(ctx.api);
      const initial = someItems(2, 'initial');
      const dataset = await createDataset(api, { items: initial });

      const first = someItems(3, 'first');
      const response = await append(api, dataset.id, first);
      expect(response.status).toBe(201);
      expect(response.body).toEqual({ added: 3, itemCount: 5, version: 2 });

      const second = [{ input: null }, anItem('last', { metadata: { take: 2 } })];
      expect(await appendOk(api, dataset.id, second)).toEqual({ added: 2, itemCount: 7, version: 3 });

      const now = await readDataset(api, dataset.id);
      expect(now).toEqual({ ...dataset, itemCount: 7, version: 3, updatedAt: expect.stringMatching(ISO_MILLIS_UTC) });
      expect(Date.parse(now.updatedAt)).toBeGreaterThanOrEqual(Date.parse(dataset.updatedAt));

      const stored = await allItems(api, dataset.id);
      expect(stored).toEqual([...initial, ...first, ...second].map((item, index) => expectedItem(item, dataset.id, index)));
      expect(new Set(ids(stored)).size).toBe(7);
    });

    it('appends to a dataset created empty, starting at index 0, and takes up to 1000 items at once', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const batch = someItems(1000, 'bulk');
      expect(await appendOk(api, dataset.id, batch)).toEqual({ added: 1000, itemCount: 1000, version: 2 });
      const stored = await allItems(api, dataset.id);
      expect(stored.map((i) => i.index)).toEqual(batch.map((_, i) => i));
      expect(stored.map((i) => i.input)).toEqual(batch.map((i) => i.input));
    });

    it.each([
      ['items', 'it is missing', {}],
      ['items', 'it is empty', { items: [] }],
      ['items', 'it is null', { items: null }],
      ['items', 'it is a single item, not an array', { items: { input: 'not in an array' } }],
      ['items', 'it has 1001 items', { items: someItems(1001) }],
      ['items[1].input', 'an item has no input', { items: [anItem(0), { expected: 'no input' }] }],
      ['items[1].colour', 'an item has an unknown field', { items: [anItem(0), anItem(1, { colour: 'red' })] }],
      ['items[0].metadata', 'metadata is an array', { items: [anItem(0, { metadata: [1, 2] })] }],
      ['items[0].input', 'input is over 1 MiB', { items: [anItem(0, { input: jsonStringOfBytes(MiB + 1) })] }],
      ['colour', 'the body has an unknown field', { items: [anItem(0)], colour: 'red' }],
    ])('answers 400 naming %s when %s, and changes nothing', async (path, _why, body) => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(2) });
      const before = await allItems(api, dataset.id);
      expectInvalid(await api.post(itemsPath(dataset.id), body), path);
      expect(await readDataset(api, dataset.id)).toEqual(dataset);
      expect(await allItems(api, dataset.id)).toEqual(before);
    });

    it('keeps every one of 10 concurrent appends: itemCount, version 11, and each index exactly once', async () => {
      const { api } = await inNewProject(ctx.api);
      const initial = someItems(2, 'initial');
      const dataset = await createDataset(api, { items: initial });
      const batches = Array.from({ length: 10 }, (_, b) => someItems(3, `parallel-${b}`));

      const answers = await Promise.all(batches.map((batch) => append<Answer<'addDatasetItems', 201>>(api, dataset.id, batch)));
      expect(answers.map((a) => a.status)).toEqual(Array<number>(10).fill(201));
      // Each append saw its own version, and the count as it stood right after it.
      expect(answers.map((a) => a.body.version).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
      for (const { body } of answers) expect(body).toEqual({ added: 3, itemCount: 2 + 3 * (body.version - 1), version: body.version });

      expect(await readDataset(api, dataset.id)).toMatchObject({ itemCount: 32, version: 11 });
      const stored = await allItems(api, dataset.id);
      expect(stored.map((i) => i.index)).toEqual(Array.from({ length: 32 }, (_, i) => i));
      expect(new Set(ids(stored)).size).toBe(32);
      expect(stored.slice(0, 2).map((i) => i.input)).toEqual(initial.map((i) => i.input));
      // Every item sent is there once, and each append's items sit together, in the order sent.
      const inputs = stored.map((i) => JSON.stringify(i.input));
      for (const batch of batches) {
        const at = inputs.indexOf(JSON.stringify(batch[0].input));
        expect(at).toBeGreaterThanOrEqual(2);
        expect(inputs.slice(at, at + 3)).toEqual(batch.map((i) => JSON.stringify(i.input)));
      }
      expect(new Set(inputs).size).toBe(32);
    });

    it('replays an append sent again with the same Idempotency-Key without adding the items twice', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(1) });
      const keyed = api.withIdempotencyKey(`dsi-${Date.now()}-${Math.random()}`);
      const batch = someItems(2);
      const first = await keyed.post<Answer<'addDatasetItems', 201>>(itemsPath(dataset.id), { items: batch });
      const again = await keyed.post<Answer<'addDatasetItems', 201>>(itemsPath(dataset.id), { items: batch });
      expect(first.status).toBe(201);
      expect(first.body).toEqual({ added: 2, itemCount: 3, version: 2 });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await readDataset(api, dataset.id)).toMatchObject({ itemCount: 3, version: 2 });
      expect(await allItems(api, dataset.id)).toHaveLength(3);
    });
  });

  describe('items list', () => {
    it('pages oldest first by index with limit and cursor, nextCursor null on the last page', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(4, 'a') });
      await appendOk(api, dataset.id, someItems(3, 'b'));

      const first = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id), { limit: 3 });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^application\/json\b/);
      expect(Object.keys(first.body).sort()).toEqual(['data', 'nextCursor']);
      expect(first.body.data.map((i: Json) => i.index)).toEqual([0, 1, 2]);
      expect(typeof first.body.nextCursor).toBe('string');
      const second = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id), { limit: 3, cursor: first.body.nextCursor ?? undefined });
      expect(second.body.data.map((i: Json) => i.index)).toEqual([3, 4, 5]);
      const third = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id), { limit: 3, cursor: second.body.nextCursor ?? undefined });
      expect(third.body.data.map((i: Json) => i.index)).toEqual([6]);
      expect(third.body.nextCursor).toBeNull();
    });

    it('gives 50 items by default and at most 200 per page', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(250) });
      const byDefault = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id));
      expect(byDefault.body.data.map((i: Json) => i.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      expect(typeof byDefault.body.nextCursor).toBe('string');
      const widest = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id), { limit: 200 });
      expect(widest.body.data).toHaveLength(200);
      const rest = await api.get<Answer<'listDatasetItems'>>(itemsPath(dataset.id), { limit: 200, cursor: widest.body.nextCursor ?? undefined });
      expect(rest.body.data.map((i: Json) => i.index)).toEqual(Array.from({ length: 50 }, (_, i) => 200 + i));
      expect(rest.body.nextCursor).toBeNull();
    });

    it('neither skips nor repeats items while items are being appended', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(9) });
      let appended = 0;
      const { items, pages } = await pageThrough<DatasetItemView>(api, itemsPath(dataset.id), { limit: 2 }, async () => {
        await appendOk(api, dataset.id, someItems(1));
        appended += 1;
      });
      expect(appended).toBeGreaterThan(0);
      expect(pages).toBeGreaterThanOrEqual(5);
      // Oldest first: what arrived while paging comes after, so the walk ends on every item there is.
      expect(items.map((i) => i.index)).toEqual(Array.from({ length: 9 + appended }, (_, i) => i));
      expect(new Set(ids(items)).size).toBe(items.length);
    });

    it.each([
      ['limit', 'limit=0', { limit: 0 }],
      ['limit', 'limit=201', { limit: 201 }],
      ['limit', 'limit=ten', { limit: 'ten' }],
      ['colour', 'an unknown parameter', { colour: 'red' }],
      ['args.colour', 'an unknown key in args', { args: JSON.stringify({ colour: 'red' }) }],
      ['args', 'args that is not an object', { args: '["index"]' }],
    ])('answers 400 naming %s for an items query with %s', async (path, _why, query) => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api, { items: someItems(3) });
      expectInvalid(await api.get(itemsPath(dataset.id), query), path);
    });

    it("refuses a tampered cursor, and another dataset's cursor, with 400 invalid_cursor", async () => {
      const { api } = await inNewProject(ctx.api);
      const a = await createDataset(api, { items: someItems(3) });
      const b = await createDataset(api, { items: someItems(3) });
      const cursor: string = (await api.get<Answer<'listDatasetItems'>>(itemsPath(a.id), { limit: 1 })).body.nextCursor!;
      expect(typeof cursor).toBe('string');
      expectProblem(await api.get(itemsPath(b.id), { limit: 1, cursor }), 400, 'invalid_cursor');
      expectProblem(await api.get(itemsPath(a.id), { limit: 1, cursor: `${cursor}x` }), 400, 'invalid_cursor');
      expectProblem(await api.get(itemsPath(a.id), { limit: 1, cursor: 'not-a-cursor' }), 400, 'invalid_cursor');
    });
  });

  describe('list', () => {
    it('lists the datasets of the project newest first, as GET shows them, paged by cursor', async () => {
      const { api } = await inNewProject(ctx.api);
      const created: DatasetView[] = [];
      for (let i = 0; i < 5; i++) created.push(await createDataset(api, { items: someItems(i) }));
      await appendOk(api, created[1].id, someItems(2));

      const response = await api.get<Answer<'listDatasets'>>(DATASETS);
      expect(response.status).toBe(200);
      expect(response.body.nextCursor).toBeNull();
      expect(ids(response.body.data)).toEqual(ids(created).reverse());
      for (const listed of response.body.data) expect(listed).toEqual(await readDataset(api, listed.id));
      expect(response.body.data.find((d: Json) => d.id === created[1].id)).toMatchObject({ itemCount: 3, version: 2 });

      const { items, pages } = await pageThrough<Item<'listDatasets'>>(api, DATASETS, { limit: 2 });
      expect(pages).toBe(3);
      expect(ids(items)).toEqual(ids(created).reverse());
    });

    it('filters by exact name, in the query and in args, an explicit parameter winning over args', async () => {
      const { api } = await inNewProject(ctx.api);
      const moves = await createDataset(api, { name: 'Camera moves' });
      const v2 = (await createDataset(api, { name: 'Camera moves v2' })).id;
      await createDataset(api, { name: 'camera moves' });
      const movesAgain = await createDataset(api, { name: '  Camera moves ' });

      expect(await listDatasetIds(api, { name: 'Camera moves' })).toEqual([movesAgain.id, moves.id]);
      expect(await listDatasetIds(api, { args: JSON.stringify({ name: 'Camera moves' }) })).toEqual([movesAgain.id, moves.id]);
      expect(await listDatasetIds(api, { args: JSON.stringify({ name: 'Camera moves v2' }) })).toEqual([v2]);
      expect(await listDatasetIds(api, { name: 'Camera moves v2', args: JSON.stringify({ name: 'Camera moves' }) })).toEqual([v2]);
      expect(await listDatasetIds(api, { name: 'Camera' })).toEqual([]);
      expect(await listDatasetIds(api, { name: "Camera moves' OR '1'='1" })).toEqual([]);
      expect(await listDatasetIds(api)).toHaveLength(4);
    });

    it.each([
      ['colour', 'an unknown parameter', { colour: 'red' }],
      ['args.colour', 'an unknown key in args', { args: JSON.stringify({ colour: 'red' }) }],
      ['args.name', 'a name in args that is not a string', { args: JSON.stringify({ name: 5 }) }],
      ['args', 'args that is not an object', { args: '["name"]' }],
      ['args', 'args that is not JSON', { args: '{not json' }],
      ['limit', 'limit=0', { limit: 0 }],
      ['limit', 'limit=201', { limit: 201 }],
    ])('answers 400 naming %s for a list query with %s', async (path, _why, query) => {
      const { api } = await inNewProject(ctx.api);
      await createDataset(api);
      expectInvalid(await api.get(DATASETS, query), path);
    });
  });

  describe('isolation', () => {
    it("answers 404 on get, items, append and delete for another project's dataset, and leaves it untouched", async () => {
      const owner = await inNewProject(ctx.api);
      const other = await inNewProject(ctx.api);
      const dataset = await createDataset(owner.api, { name: 'Private shots', items: someItems(2) });
      const items = await allItems(owner.api, dataset.id);

      expectProblem(await other.api.get(datasetPath(dataset.id)), 404, 'not_found');
      expectProblem(await other.api.get(itemsPath(dataset.id)), 404, 'not_found');
      expectProblem(await append(other.api, dataset.id, someItems(1)), 404, 'not_found');
      expectProblem(await deleteDataset(other.api, dataset.id), 404, 'not_found');
      expect(await listDatasetIds(other.api)).toEqual([]);
      expect(await listDatasetIds(other.api, { name: 'Private shots' })).toEqual([]);

      expect(await readDataset(owner.api, dataset.id)).toEqual(dataset);
      expect(await allItems(owner.api, dataset.id)).toEqual(items);
      expect(await listDatasetIds(owner.api)).toEqual([dataset.id]);
    });
  });

  describe('delete', () => {
    it('answers 200 { id, deleted: true }; then the dataset and its items are gone and it leaves the list', async () => {
      const { api } = await inNewProject(ctx.api);
      const kept = await createDataset(api, { name: 'Kept', items: someItems(2) });
      const doomed = await createDataset(api, { name: 'Doomed', items: someItems(3) });

      const response = await deleteDataset(api, doomed.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ id: doomed.id, deleted: true });

      expectProblem(await api.get(datasetPath(doomed.id)), 404, 'not_found');
      expectProblem(await api.get(itemsPath(doomed.id)), 404, 'not_found');
      expectProblem(await append(api, doomed.id, someItems(1)), 404, 'not_found');
      expectProblem(await deleteDataset(api, doomed.id), 404, 'not_found');
      expect(await listDatasetIds(api)).toEqual([kept.id]);
      expect(await listDatasetIds(api, { name: 'Doomed' })).toEqual([]);

      expect(await readDataset(api, kept.id)).toEqual(kept);
      expect(await allItems(api, kept.id)).toHaveLength(2);
    });
  });

  describe('methods', () => {
    it.each(['PUT', 'PATCH'])('answers %s on /datasets/{id} with 405 method_not_allowed and changes nothing', async (method) => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const response = await api.request(method, datasetPath(dataset.id), { json: { name: 'Renamed' } });
      expectProblem(response, 405, 'method_not_allowed');
      const allow = (response.headers.get('allow') ?? '')
        .split(',')
        .map((m) => m.trim())
        .sort();
      expect(allow).toEqual(expect.arrayContaining(['DELETE', 'GET']));
      expect(allow).not.toContain(method);
      expect(await readDataset(api, dataset.id)).toEqual(dataset);
    });
  });
});
