import { SCORE_DATA_TYPES, SCORE_LIMITS, SCORE_SOURCES, type FieldError, type ScoreDataType, type ScoreSource } from '@cinetrace/contracts';
import { CLIENT_ID_PATTERN, unfaithfulJsonValues } from '@cinetrace/traces';

const CLIENT_ID = new RegExp(CLIENT_ID_PATTERN);
const SCORE_FIELDS = ['id', 'traceId', 'spanId', 'name', 'value', 'stringValue', 'dataType', 'source', 'comment', 'configId', 'evaluatorId', 'author'];

/** A score's body as checked on its own, before a config has its say (applyConfig). */
export interface ScoreDraft {
  /** The client's id, when it chose one. */
  id?: string;
  traceId: string;
  spanId: string | null;
  name: string;
  /** As sent: a number, a boolean, a category label, or absent (a categorical given by `stringValue`). */
  value: number | boolean | string | undefined;
  stringValue: string | undefined;
  dataType: ScoreDataType | undefined;
  source: ScoreSource;
  comment: string | null;
  configId: string | undefined;
  evaluatorId: string | null;
  author: string | undefined;
}

/** What a score config checks a value against. */
export interface ConfigRule {
  id: string;
  name: string;
  dataType: ScoreDataType;
  min: number | null;
  max: number | null;
  categories: Array<{ label: string; value: number }> | null;
}

/** A score's value as stored: its number, its label, its type, and the config that checked it. */
export interface ScoreValue {
  value: number | null;
  stringValue: string | null;
  dataType: ScoreDataType;
  configId: string | null;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const text = (value: unknown, max: number) => typeof value === 'string' && value.length >= 1 && value.length <= max;

/**
 * One score of a POST /api/v1/scores body (or an item of a batch), checked field by field:
 * pushes every offending field to `errors` (`value`, `traceId`) and answers the draft when there
 * is none. What the value must be beyond its own type is the config's word (applyConfig).
 */
export function checkScoreInput(raw: unknown, errors: FieldError[]): ScoreDraft | undefined {
  if (!isPlainObject(raw)) {
    errors.push({ path: 'body', message: 'must be a score object { traceId, name, value, … }' });
    return undefined;
  }
  const before = errors.length;
  // Values a store cannot hold as sent (U+0000, a lone surrogate, a number past the double range), each named once.
  const unfaithful = unfaithfulJsonValues(raw);
  errors.push(...unfaithful);
  const named = new Set(unfaithful.map((e) => e.path.split(/[.[]/)[0]));
  const fail = (path: string, message: string) => {
    if (!named.has(path)) errors.push({ path, message });
  };
  for (const key of Object.keys(raw)) {
    if (!SCORE_FIELDS.includes(key)) fail(key, 'is not accepted here (unknown or read-only field)');
  }
  const { id, traceId, spanId, name, value, stringValue, dataType, source, comment, configId, evaluatorId, author } = raw;
  const clientId = (path: string, v: unknown, optional: boolean) => {
    if (optional && (v === undefined || v === null)) return;
    if (typeof v !== 'string' || !CLIENT_ID.test(v)) fail(path, `must be 1..128 characters of letters, digits and . _ : -${optional ? ' (or absent)' : ''}`);
  };
  if (id !== undefined) clientId('id', id, false);
  clientId('traceId', traceId, false);
  clientId('spanId', spanId, true);
  if (!text(name, SCORE_LIMITS.nameLength)) fail('name', `must be a string of 1..${SCORE_LIMITS.nameLength} characters`);
  if (dataType !== undefined && !SCORE_DATA_TYPES.includes(dataType as ScoreDataType)) fail('dataType', `must be one of: ${SCORE_DATA_TYPES.join(', ')}`);
  if (source !== undefined && !SCORE_SOURCES.includes(source as ScoreSource)) fail('source', `must be one of: ${SCORE_SOURCES.join(', ')}`);
  if (comment !== undefined && comment !== null && !(typeof comment === 'string' && comment.length <= SCORE_LIMITS.comment)) {
    fail('comment', `must be a string of at most ${SCORE_LIMITS.comment} characters`);
  }
  if (configId !== undefined && !text(configId, 40)) fail('configId', 'must be the id of a score config of this project');
  clientId('evaluatorId', evaluatorId, true);
  if (author !== undefined && !text(author, SCORE_LIMITS.author)) fail('author', `must be a string of 1..${SCORE_LIMITS.author} characters`);
  if (stringValue !== undefined && !text(stringValue, SCORE_LIMITS.categoryLabel)) fail('stringValue', `must be a category label of 1..${SCORE_LIMITS.categoryLabel} characters`);
  checkValueType(value, stringValue, dataType as ScoreDataType | undefined, fail);
  if (errors.length > before) return undefined;
  return {
    ...(id !== undefined ? { id: id as string } : {}),
    traceId: traceId as string,
    spanId: (spanId as string | null | undefined) ?? null,
    name: name as string,
    value: value as ScoreDraft['value'],
    stringValue: stringValue as string | undefined,
    dataType: dataType as ScoreDataType | undefined,
    source: (source as ScoreSource | undefined) ?? 'api',
    comment: (comment as string | null | undefined) ?? null,
    configId: configId as string | undefined,
    evaluatorId: (evaluatorId as string | null | undefined) ?? null,
    author: author as string | undefined,
  };
}

/** The value's own type: a finite number, a boolean, or a category label; and that it agrees with `dataType` when one is given. */
function checkValueType(value: unknown, stringValue: unknown, dataType: ScoreDataType | undefined, fail: (path: string, message: string) => void): void {
  if (value === undefined) {
    if (stringValue === undefined) fail('value', 'is required: a number, a boolean or a category label');
    else if (dataType !== undefined && dataType !== 'categorical') fail('value', `is required for a ${dataType} score`);
    return;
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail('value', 'must be a finite number');
    else if (dataType === 'boolean' && value !== 0 && value !== 1) fail('value', 'must be true, false, 1 or 0 for a boolean score');
    return;
  }
  if (typeof value === 'boolean') {
    if (dataType !== undefined && dataType !== 'boolean') fail('value', `must be a number${dataType === 'categorical' ? ' or a category label' : ''} for a ${dataType} score`);
    return;
  }
  if (typeof value === 'string') {
    if (!text(value, SCORE_LIMITS.categoryLabel)) fail('value', `must be a category label of 1..${SCORE_LIMITS.categoryLabel} characters`);
    else if (dataType !== undefined && dataType !== 'categorical') fail('value', `must be a ${dataType === 'boolean' ? 'boolean' : 'number'} for a ${dataType} score`);
    else if (stringValue !== undefined && stringValue !== value) fail('stringValue', 'must be the label given as value, or absent');
    return;
  }
  fail('value', 'must be a number, a boolean or a category label');
}

/**
 * The value as stored, checked against `config` when the score has one (by `configId`, or a
 * live config of its name): a numeric value within min..max, a boolean, a declared category.
 * Pushes `value` (or `dataType`, `name`) to `errors` when it does not fit.
 */
export function applyConfig(draft: ScoreDraft, config: ConfigRule | undefined, errors: FieldError[]): ScoreValue | undefined {
  const dataType = draft.dataType ?? config?.dataType ?? inferredType(draft);
  const fail = (path: string, message: string) => {
    errors.push({ path, message });
    return undefined;
  };
  if (!config) {
    const label = typeof draft.value === 'string' ? draft.value : draft.stringValue;
    if (dataType === 'categorical' && label === undefined) return fail('value', 'must be a category label (or give stringValue): no score config of this name numbers it');
    return unconfigured(draft, dataType);
  }
  if (config.name !== draft.name) return fail('name', `must be '${config.name}', the name of score config ${config.id}`);
  if (draft.dataType !== undefined && draft.dataType !== config.dataType) return fail('dataType', `must be ${config.dataType}, as score config '${config.name}' says`);
  const { value } = draft;
  switch (config.dataType) {
    case 'numeric': {
      if (typeof value !== 'number') return fail('value', `must be a number (score config '${config.name}' is numeric)`);
      if ((config.min !== null && value < config.min) || (config.max !== null && value > config.max)) {
        return fail('value', `must be within ${config.min ?? '-∞'}..${config.max ?? '∞'} (score config '${config.name}')`);
      }
      return { value, stringValue: null, dataType: 'numeric', configId: config.id };
    }
    case 'boolean': {
      if (typeof value !== 'boolean' && value !== 0 && value !== 1) return fail('value', `must be true or false (score config '${config.name}' is boolean)`);
      return { ...booleanValue(value === true || value === 1), configId: config.id };
    }
    case 'categorical': {
      const categories = config.categories ?? [];
      const label = typeof value === 'string' ? value : draft.stringValue;
      const category = label !== undefined ? categories.find((c) => c.label === label) : typeof value === 'number' ? categories.find((c) => c.value === value) : undefined;
      if (!category || (typeof value === 'number' && category.value !== value)) {
        return fail('value', `must be one of the categories of score config '${config.name}': ${categories.map((c) => c.label).join(', ')}`);
      }
      return { value: category.value, stringValue: category.label, dataType: 'categorical', configId: config.id };
    }
  }
}

function inferredType(draft: ScoreDraft): ScoreDataType {
  if (typeof draft.value === 'boolean') return 'boolean';
  if (typeof draft.value === 'string' || draft.value === undefined) return 'categorical';
  return 'numeric';
}

const booleanValue = (yes: boolean) => ({ value: yes ? 1 : 0, stringValue: yes ? 'true' : 'false', dataType: 'boolean' as const });

/** Without a config: the value as its type reads it (a categorical keeps its label, and its number when one was sent). */
function unconfigured(draft: ScoreDraft, dataType: ScoreDataType): ScoreValue {
  const { value } = draft;
  if (dataType === 'boolean') return { ...booleanValue(value === true || value === 1), configId: null };
  if (dataType === 'categorical') {
    const label = typeof value === 'string' ? value : (draft.stringValue ?? null);
    return { value: typeof value === 'number' ? value : null, stringValue: label, dataType, configId: null };
  }
  return { value: value as number, stringValue: null, dataType, configId: null };
}
