import { expect } from '@jest/globals';
import { AddDatasetItemsInput, CreateApiKeyInput, CreateBenchmarkInput, CreateDatasetInput, CreatePromptInput, CreateProjectInput, StartRunInput } from '@cinetrace/contracts';
import { checkInput } from './check-input';

const paths = (errors: { path: string }[]) => errors.map((e) => e.path).sort();

describe('checkInput', () => {
  const benchmark = (overrides: Record<string, unknown> = {}) => ({
    name: 'b',
    datasetId: 'ds_1',
    scorers: [{ type: 'exact_match' }],
    target: { type: 'dataset' },
    ...overrides,
  });

  it('keeps constructor and prototype keys in free-form JSON exactly as sent, at any depth', async () => {
    const scorers = [{ type: 'http', config: { url: 'https://example.com', headers: { constructor: 'x' } } }];
    const target = { type: 'http', url: 'https://example.com', headers: { constructor: 'y' }, nested: [{ constructor: null }] };
    const { value, errors } = await checkInput(CreateBenchmarkInput, benchmark({ scorers, target }));
    expect(errors).toEqual([]);
    expect(JSON.parse(JSON.stringify(value))).toEqual(benchmark({ scorers, target }));

    const items = [{ input: { constructor: 1, prototype: { toString: 2 } }, expected: [{ constructor: 'c' }], metadata: { valueOf: 3 } }];
    const checked = await checkInput(AddDatasetItemsInput, { items });
    expect(checked.errors).toEqual([]);
    expect(JSON.parse(JSON.stringify(checked.value))).toEqual({ items });
    expect(Object.hasOwn(checked.value.items[0].input as object, 'constructor')).toBe(true);
  });

  // Bodies the fuzz suite found answering 500: class-transformer took a nested own
  // `constructor` key for a class wherever no class was declared for the value.
  it.each([
    ['an unknown field holding one', CreateProjectInput, { name: 'p', 'a.b': [1, { toString: {}, constructor: 'x' }] }, ['a.b']],
    ['a string list holding one', CreateApiKeyInput, { name: 'k', scopes: ['admin', { constructor: 'i;' }] }, ['scopes[1]']],
    ['a declared list of objects holding one deeper', CreateDatasetInput, { name: 'd', items: [{ input: {}, x: { constructor: true } }] }, ['items[0].x']],
    ['a nested input holding one under an unknown field', StartRunInput, { experiment: { flags: {}, extra: { constructor: 'c' } } }, ['experiment.extra']],
  ])('answers a constructor key in %s with the field named, never a crash', async (_label, type, raw, expected) => {
    const { errors } = await checkInput(type as new () => object, raw);
    expect(paths(errors)).toEqual(expect.arrayContaining(expected as string[]));
  });

  it('names a constructor or __proto__ key where the input declares its fields, instead of dropping it', async () => {
    const raw: unknown = JSON.parse('{"name":"n","content":"c","type":"text-to-text","constructor":1,"__proto__":{"x":1},"metadata":{"constructor":1}}');
    expect(paths((await checkInput(CreatePromptInput, raw)).errors)).toEqual(['__proto__', 'constructor']);
    const runner = { constructor: { prototype: 1 }, concurrency: 2 };
    expect(paths((await checkInput(CreateBenchmarkInput, benchmark({ runner }))).errors)).toEqual(['runner.constructor']);
    const items: Record<string, unknown>[] = [{ input: 1 }, { input: 2, constructor: 'x' }];
    expect(paths((await checkInput(AddDatasetItemsInput, { items })).errors)).toEqual(['items[1].constructor']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('names each dataset item that is not an object by its index, arrays included', async () => {
    const items = [{ input: 1 }, [], [{ input: 2 }], null, 'x', {}];
    const { errors } = await checkInput(AddDatasetItemsInput, { items });
    expect(errors).toEqual([
      { path: 'items[1]', message: 'must be an object: { input, expected?, metadata? }' },
      { path: 'items[2]', message: 'must be an object: { input, expected?, metadata? }' },
      { path: 'items[3]', message: 'must be an object: { input, expected?, metadata? }' },
      { path: 'items[4]', message: 'must be an object: { input, expected?, metadata? }' },
      { path: 'items[5].input', message: 'is required (any JSON value)' },
    ]);
  });
});
