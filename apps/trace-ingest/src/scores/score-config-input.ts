import { DomainError, SCORE_DATA_TYPES, SCORE_LIMITS, type FieldError, type ScoreDataType } from '@cinetrace/contracts';
import { unfaithfulJsonValues } from '@cinetrace/traces';

const CONFIG_FIELDS = ['name', 'dataType', 'min', 'max', 'categories', 'description'];
const UPDATE_FIELDS = ['description', 'archived'];

/** A new score config as checked: bounds only for numeric, categories only for categorical. */
export interface ScoreConfigDraft {
  name: string;
  dataType: ScoreDataType;
  min: number | null;
  max: number | null;
  categories: Array<{ label: string; value: number }> | null;
  description: string | null;
}

export interface ScoreConfigChange {
  description?: string | null;
  archived?: boolean;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** POST /api/v1/score-configs' body, field by field; throws 400 validation_failed naming each offending one. */
export function checkScoreConfigInput(raw: unknown): ScoreConfigDraft {
  if (!isPlainObject(raw)) throw DomainError.validation([{ path: 'body', message: 'must be a score config object { name, dataType, … }' }]);
  // Text a store cannot hold as sent (U+0000, a lone surrogate), named by its field.
  const errors: FieldError[] = unfaithfulJsonValues(raw);
  if (errors.length) throw DomainError.validation(errors, 'The score config is not valid');
  const fail = (path: string, message: string) => errors.push({ path, message });
  for (const key of Object.keys(raw)) if (!CONFIG_FIELDS.includes(key)) fail(key, 'is not accepted here (unknown or read-only field)');
  const { name, dataType, min, max, categories, description } = raw;
  if (typeof name !== 'string' || name.length < 1 || name.length > SCORE_LIMITS.nameLength) fail('name', `must be a string of 1..${SCORE_LIMITS.nameLength} characters`);
  if (!SCORE_DATA_TYPES.includes(dataType as ScoreDataType)) fail('dataType', `must be one of: ${SCORE_DATA_TYPES.join(', ')}`);
  checkDescription(description, fail);
  for (const [path, bound] of [
    ['min', min],
    ['max', max],
  ] as const) {
    if (bound === undefined || bound === null) continue;
    if (dataType !== 'numeric') fail(path, 'is only for a numeric config');
    else if (!finite(bound)) fail(path, 'must be a finite number (or absent: no bound)');
  }
  if (finite(min) && finite(max) && min > max) fail('max', 'must not be less than min');
  let checkedCategories: ScoreConfigDraft['categories'] = null;
  if (dataType === 'categorical') checkedCategories = checkCategories(categories, fail);
  else if (categories !== undefined && categories !== null) fail('categories', 'is only for a categorical config');
  if (errors.length) throw DomainError.validation(errors, 'The score config is not valid');
  return {
    name: name as string,
    dataType: dataType as ScoreDataType,
    min: finite(min) ? min : null,
    max: finite(max) ? max : null,
    categories: checkedCategories,
    description: (description as string | null | undefined) ?? null,
  };
}

function checkCategories(raw: unknown, fail: (path: string, message: string) => void): ScoreConfigDraft['categories'] {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > SCORE_LIMITS.categories) {
    fail('categories', `must be an array of 1..${SCORE_LIMITS.categories} categories { label, value }`);
    return null;
  }
  const labels = new Set<string>();
  const values = new Set<number>();
  raw.forEach((category: unknown, i) => {
    const at = `categories[${i}]`;
    if (!isPlainObject(category)) return fail(at, 'must be { label, value }');
    for (const key of Object.keys(category)) if (key !== 'label' && key !== 'value') fail(`${at}.${key}`, 'is not a field of a category (label, value)');
    const { label, value } = category;
    if (typeof label !== 'string' || label.length < 1 || label.length > SCORE_LIMITS.categoryLabel)
      fail(`${at}.label`, `must be a string of 1..${SCORE_LIMITS.categoryLabel} characters`);
    else if (labels.has(label)) fail(`${at}.label`, 'is the label of another category');
    else labels.add(label);
    if (!finite(value)) fail(`${at}.value`, 'must be a finite number');
    else if (values.has(value)) fail(`${at}.value`, 'is the value of another category');
    else values.add(value);
  });
  return (raw as Array<{ label: string; value: number }>).map(({ label, value }) => ({ label, value }));
}

function checkDescription(description: unknown, fail: (path: string, message: string) => void): void {
  if (description === undefined || description === null) return;
  if (typeof description !== 'string' || description.length > SCORE_LIMITS.description)
    fail('description', `must be a string of at most ${SCORE_LIMITS.description} characters, or null`);
}

/** PUT /api/v1/score-configs/{id}'s body: only the description and archived change; a config's type and range never do. */
export function checkScoreConfigChange(raw: unknown): ScoreConfigChange {
  if (!isPlainObject(raw)) throw DomainError.validation([{ path: 'body', message: 'must be an object { description?, archived? }' }]);
  const errors: FieldError[] = unfaithfulJsonValues(raw);
  if (errors.length) throw DomainError.validation(errors, 'The score config change is not valid');
  const fail = (path: string, message: string) => errors.push({ path, message });
  for (const key of Object.keys(raw)) {
    if (UPDATE_FIELDS.includes(key)) continue;
    fail(
      key,
      CONFIG_FIELDS.includes(key)
        ? "never changes (a config's name, type and range are fixed; archive it and create another)"
        : 'is not accepted here (unknown or read-only field)',
    );
  }
  checkDescription(raw.description, fail);
  if (raw.archived !== undefined && typeof raw.archived !== 'boolean') fail('archived', 'must be a boolean');
  if (errors.length) throw DomainError.validation(errors, 'The score config change is not valid');
  return {
    ...(raw.description !== undefined ? { description: raw.description as string | null } : {}),
    ...(raw.archived !== undefined ? { archived: raw.archived as boolean } : {}),
  };
}
