import {
  DomainError,
  MODEL_PRICE_LIMITS,
  MODEL_PRICE_UNITS,
  RESOLUTION_PATTERN,
  RESOLUTION_UNITS,
  type FieldError,
  type ModelPriceEntry,
  type ModelPriceUnit,
} from '@cinetrace/contracts';
import { regexProblem } from '@cinetrace/scorers';

const ENTRY_FIELDS = ['match', 'unit', 'usd', 'resolution'];

/**
 * The entries of a PUT /api/v1/model-prices body, checked field by field; throws 400
 * validation_failed naming every offending one (`entries[3].match.regex`). Names and
 * resolutions come back trimmed, resolutions lower-cased.
 */
export function checkModelPricesInput(raw: unknown): ModelPriceEntry[] {
  if (!isPlainObject(raw)) throw DomainError.validation([{ path: 'body', message: 'must be a JSON object { entries: [ … ] }' }]);
  const errors: FieldError[] = [];
  for (const key of Object.keys(raw)) if (key !== 'entries') errors.push({ path: key, message: 'is not accepted here (unknown or read-only field)' });
  const { entries } = raw;
  if (!Array.isArray(entries) || entries.length > MODEL_PRICE_LIMITS.entries) {
    errors.push({ path: 'entries', message: `must be an array of at most ${MODEL_PRICE_LIMITS.entries} prices { match, unit, usd, resolution? }` });
    throw DomainError.validation(errors, 'The model prices are not valid');
  }
  const checked = entries.map((entry, i) => checkEntry(entry, `entries[${i}]`, errors));
  const regexes = entries.filter((e) => isPlainObject(e) && isPlainObject(e.match)).length;
  if (regexes > MODEL_PRICE_LIMITS.regexEntries) {
    errors.push({ path: 'entries', message: `must hold at most ${MODEL_PRICE_LIMITS.regexEntries} entries matching by regex (it holds ${regexes})` });
  }
  const seen = new Map<string, number>();
  checked.forEach((entry, i) => {
    if (!entry) return;
    const key = JSON.stringify([entry.match, entry.unit, entry.resolution ?? null]);
    const first = seen.get(key);
    if (first === undefined) seen.set(key, i);
    else errors.push({ path: `entries[${i}]`, message: `prices the same match, unit and resolution as entries[${first}]` });
  });
  if (errors.length) throw DomainError.validation(errors, 'The model prices are not valid');
  return checked as ModelPriceEntry[];
}

function checkEntry(entry: unknown, at: string, errors: FieldError[]): ModelPriceEntry | undefined {
  if (!isPlainObject(entry)) {
    errors.push({ path: at, message: 'must be a price object { match, unit, usd, resolution? }' });
    return undefined;
  }
  const before = errors.length;
  for (const key of Object.keys(entry)) {
    if (!ENTRY_FIELDS.includes(key)) errors.push({ path: `${at}.${key}`, message: 'is not a field of a price (match, unit, usd, resolution)' });
  }
  const match = checkMatch(entry.match, `${at}.match`, errors);
  const { unit, usd, resolution } = entry;
  if (!MODEL_PRICE_UNITS.includes(unit as ModelPriceUnit)) errors.push({ path: `${at}.unit`, message: `must be one of: ${MODEL_PRICE_UNITS.join(', ')}` });
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > MODEL_PRICE_LIMITS.usdMax) {
    errors.push({ path: `${at}.usd`, message: `must be a number of USD per unit, 0..${MODEL_PRICE_LIMITS.usdMax}` });
  }
  if (resolution !== undefined) {
    if (typeof resolution !== 'string' || !RESOLUTION_PATTERN.test(resolution.trim())) {
      errors.push({ path: `${at}.resolution`, message: 'must be a resolution: 720p, 1080p, 4k (the shorter side) or 1792x1024 (both sides)' });
    } else if (!RESOLUTION_UNITS.includes(unit as ModelPriceUnit)) {
      errors.push({ path: `${at}.resolution`, message: `applies only to ${RESOLUTION_UNITS.join(' and ')} prices` });
    }
  }
  if (errors.length > before || match === undefined) return undefined;
  const price: ModelPriceEntry = { match, unit: unit as ModelPriceUnit, usd: usd as number };
  if (typeof resolution === 'string') price.resolution = resolution.trim().toLowerCase();
  return price;
}

function checkMatch(match: unknown, at: string, errors: FieldError[]): ModelPriceEntry['match'] | undefined {
  if (typeof match === 'string') {
    const name = match.trim();
    if (name.length >= 1 && name.length <= MODEL_PRICE_LIMITS.nameLength) return name;
    errors.push({ path: at, message: `must be a model name of 1..${MODEL_PRICE_LIMITS.nameLength} characters, or { regex }` });
    return undefined;
  }
  if (!isPlainObject(match)) {
    errors.push({ path: at, message: 'must be a model name, or { regex }' });
    return undefined;
  }
  const before = errors.length;
  for (const key of Object.keys(match)) if (key !== 'regex') errors.push({ path: `${at}.${key}`, message: 'is not a field of a match (regex)' });
  const { regex } = match;
  if (typeof regex !== 'string' || regex.length < 1 || regex.length > MODEL_PRICE_LIMITS.regexLength) {
    errors.push({ path: `${at}.regex`, message: `must be a regular expression of 1..${MODEL_PRICE_LIMITS.regexLength} characters` });
  } else {
    const problem = regexProblem(regex, 'i');
    if (problem) errors.push({ path: `${at}.regex`, message: problem });
  }
  return errors.length > before ? undefined : { regex: regex as string };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
