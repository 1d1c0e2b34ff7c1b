import { expect } from '@jest/globals';
import type { FieldError } from '@cinetrace/contracts';
import { applyConfig, checkScoreInput, type ConfigRule } from './score-input';
import { checkScoreConfigChange, checkScoreConfigInput } from './score-config-input';

const check = (raw: unknown) => {
  const errors: FieldError[] = [];
  const draft = checkScoreInput(raw, errors);
  return { draft, errors };
};
const paths = (errors: FieldError[]) => errors.map((e) => e.path);
const valueOf = (raw: Record<string, unknown>, config?: ConfigRule) => {
  const errors: FieldError[] = [];
  const { draft } = check({ traceId: 't1', name: 'quality', ...raw });
  return { value: draft && applyConfig(draft, config, errors), errors };
};

const numeric: ConfigRule = { id: 'scfg_1', name: 'quality', dataType: 'numeric', min: 0, max: 1, categories: null };
const boolean: ConfigRule = { id: 'scfg_2', name: 'quality', dataType: 'boolean', min: null, max: null, categories: null };
const categorical: ConfigRule = {
  id: 'scfg_3',
  name: 'quality',
  dataType: 'categorical',
  min: null,
  max: null,
  categories: [
    { label: 'bad', value: 0 },
    { label: 'good', value: 1 },
  ],
};

describe('checkScoreInput', () => {
  it('takes a score with its defaults: source api, no span, no comment', () => {
    expect(check({ traceId: 'tr_1', name: 'quality', value: 0.5 })).toEqual({
      draft: expect.objectContaining({ traceId: 'tr_1', spanId: null, name: 'quality', value: 0.5, source: 'api', comment: null, evaluatorId: null }),
      errors: [],
    });
  });

  it('names every offending field', () => {
    const { draft, errors } = check({
      id: 'bad id',
      traceId: '',
      spanId: 7,
      name: 'x'.repeat(101),
      value: Number.NaN,
      source: 'robot',
      comment: 'c'.repeat(5001),
      dataType: 'ordinal',
      extra: 1,
    });
    expect(draft).toBeUndefined();
    expect(paths(errors).sort()).toEqual(['comment', 'dataType', 'extra', 'id', 'name', 'source', 'spanId', 'traceId', 'value']);
  });

  it('refuses a score without a value, a value of another type than its dataType, and a body that is not an object', () => {
    expect(paths(check({ traceId: 't', name: 'n' }).errors)).toEqual(['value']);
    expect(paths(check({ traceId: 't', name: 'n', value: true, dataType: 'numeric' }).errors)).toEqual(['value']);
    expect(paths(check({ traceId: 't', name: 'n', value: 'good', dataType: 'boolean' }).errors)).toEqual(['value']);
    expect(paths(check({ traceId: 't', name: 'n', value: 2, dataType: 'boolean' }).errors)).toEqual(['value']);
    expect(paths(check({ traceId: 't', name: 'n', value: { a: 1 } }).errors)).toEqual(['value']);
    expect(paths(check([1]).errors)).toEqual(['body']);
  });

  it('refuses text a store cannot hold as sent (U+0000, a lone surrogate), naming the field', () => {
    expect(paths(check({ traceId: 't', name: 'a\u0000b', value: 1 }).errors)).toEqual(['name']);
    expect(paths(check({ traceId: 't', name: 'n', value: 1, comment: 'x\ud800' }).errors)).toEqual(['comment']);
  });
});

describe('applyConfig', () => {
  it('without a config reads the type from the value: a number, a boolean stored 1/0, a label', () => {
    expect(valueOf({ value: 0.25 }).value).toEqual({ value: 0.25, stringValue: null, dataType: 'numeric', configId: null });
    expect(valueOf({ value: true }).value).toEqual({ value: 1, stringValue: 'true', dataType: 'boolean', configId: null });
    expect(valueOf({ value: false }).value).toEqual({ value: 0, stringValue: 'false', dataType: 'boolean', configId: null });
    expect(valueOf({ value: 'good' }).value).toEqual({ value: null, stringValue: 'good', dataType: 'categorical', configId: null });
    expect(valueOf({ value: 2, stringValue: 'good', dataType: 'categorical' }).value).toEqual({ value: 2, stringValue: 'good', dataType: 'categorical', configId: null });
    expect(paths(valueOf({ value: 2, dataType: 'categorical' }).errors)).toEqual(['value']);
  });

  it('holds a numeric value to the config range, inclusive', () => {
    expect(valueOf({ value: 0 }, numeric).value).toMatchObject({ value: 0, configId: 'scfg_1' });
    expect(valueOf({ value: 1 }, numeric).value).toMatchObject({ value: 1 });
    expect(valueOf({ value: 1.01 }, numeric)).toEqual({ value: undefined, errors: [{ path: 'value', message: expect.stringContaining('0..1') }] });
    expect(paths(valueOf({ value: -0.1 }, numeric).errors)).toEqual(['value']);
    expect(paths(valueOf({ value: 'good' }, numeric).errors)).toEqual(['value']);
  });

  it('takes a boolean config true, false, 1 or 0 only', () => {
    expect(valueOf({ value: true }, boolean).value).toEqual({ value: 1, stringValue: 'true', dataType: 'boolean', configId: 'scfg_2' });
    expect(valueOf({ value: 0 }, boolean).value).toMatchObject({ value: 0, stringValue: 'false' });
    expect(paths(valueOf({ value: 0.5 }, boolean).errors)).toEqual(['value']);
  });

  it("takes a categorical config's label or number, and gives both", () => {
    expect(valueOf({ value: 'good' }, categorical).value).toEqual({ value: 1, stringValue: 'good', dataType: 'categorical', configId: 'scfg_3' });
    expect(valueOf({ value: 0 }, categorical).value).toMatchObject({ value: 0, stringValue: 'bad' });
    expect(valueOf({ stringValue: 'bad' }, categorical).value).toMatchObject({ value: 0, stringValue: 'bad' });
    expect(valueOf({ value: 'meh' }, categorical).errors).toEqual([{ path: 'value', message: expect.stringContaining('bad, good') }]);
    expect(paths(valueOf({ value: 5 }, categorical).errors)).toEqual(['value']);
  });

  it("refuses a dataType other than the config's, and a name other than its own", () => {
    expect(paths(valueOf({ value: 1, dataType: 'boolean' }, numeric).errors)).toEqual(['dataType']);
    expect(paths(valueOf({ value: 1 }, { ...numeric, name: 'other' }).errors)).toEqual(['name']);
  });
});

describe('score configs', () => {
  it('takes a numeric range, boolean, and categories; refuses what does not belong to the type', () => {
    expect(checkScoreConfigInput({ name: 'q', dataType: 'numeric', min: 0, max: 10 })).toMatchObject({ min: 0, max: 10, categories: null });
    expect(checkScoreConfigInput({ name: 'ok', dataType: 'boolean' })).toMatchObject({ min: null, max: null });
    expect(checkScoreConfigInput({ name: 'v', dataType: 'categorical', categories: [{ label: 'a', value: 1 }] }).categories).toEqual([{ label: 'a', value: 1 }]);
    const refused = (raw: unknown) => {
      try {
        checkScoreConfigInput(raw);
      } catch (error) {
        return paths((error as { errors: FieldError[] }).errors);
      }
      return [];
    };
    expect(refused({ name: 'q', dataType: 'numeric', min: 2, max: 1 })).toEqual(['max']);
    expect(refused({ name: 'q', dataType: 'boolean', min: 0 })).toEqual(['min']);
    expect(refused({ name: 'q', dataType: 'categorical' })).toEqual(['categories']);
    expect(
      refused({
        name: 'q',
        dataType: 'categorical',
        categories: [
          { label: 'a', value: 1 },
          { label: 'a', value: 2 },
        ],
      }),
    ).toEqual(['categories[1].label']);
    expect(refused({ name: '', dataType: 'rank' })).toEqual(['name', 'dataType']);
  });

  it('changes only the description and archived: type and range never', () => {
    expect(checkScoreConfigChange({ description: 'd', archived: true })).toEqual({ description: 'd', archived: true });
    expect(() => checkScoreConfigChange({ min: 5 })).toThrow(expect.objectContaining({ errors: [{ path: 'min', message: expect.stringContaining('never changes') }] }) as never);
  });
});
