import { ENV_NAMING_FIELDS, ENV_NAMING_MESSAGE, headerValueProblem, isSecretReference, SECRET_REFERENCE_MESSAGE } from '@cinetrace/contracts';
import { FIELD_PATH_PATTERN } from './field-path';
import { schemaShapeProblem } from './json-schema';
import { regexProblem } from './linear-regex';
import { VIDEO_CONFIG_RULES } from './video-config-rules';
import { MAX_SCORERS, SCORER_NAME_MAX, SCORER_TYPES, ScorerFieldError, ScorerSpec, ScorerType, isScorerType } from './scorer.types';

export type ScorersValidation = { ok: true; scorers: ScorerSpec[] } | { ok: false; errors: ScorerFieldError[] };

/** Checks one config value; pushes errors under `path` (which is `….config.<key>`). */
export type Check = (value: unknown, path: string, errors: ScorerFieldError[]) => void;

interface ConfigRules {
  required?: string[];
  keys: Record<string, Check>;
  /** Rules between keys; they skip keys whose own check failed. */
  together?: (config: Record<string, unknown>, path: string, errors: ScorerFieldError[]) => void;
}

const REGEX_FLAGS_PATTERN = /^(?!.*(.).*\1)[gimsuy]*$/; // each flag at most once

const check =
  (test: (value: unknown) => boolean, message: string): Check =>
  (value, path, errors) => {
    if (!test(value)) errors.push({ path, message });
  };

const isBoolean = check((v) => typeof v === 'boolean', 'must be true or false');
const isText = check((v) => typeof v === 'string' && v.trim() !== '', 'must be a non-empty string');
const isFiniteNumber = check((v) => typeof v === 'number' && Number.isFinite(v), 'must be a number');
const isFieldPath = check((v) => typeof v === 'string' && FIELD_PATH_PATTERN.test(v), 'must be a dot path into the output, like caption or video.durationSeconds');
const isThreshold = check((v) => typeof v === 'number' && v >= 0 && v <= 1, 'must be a number in 0..1');
const isTolerance = check((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'must be a number ≥ 0');
const isRegexFlags = check((v) => typeof v === 'string' && REGEX_FLAGS_PATTERN.test(v), 'must be regex flags: each of g, i, m, s, u and y at most once');
const isSecret = check(isSecretReference, SECRET_REFERENCE_MESSAGE);
const isHttpUrl = check(isHttpUrlText, 'must be an http(s) URL');

// Only its size and depth here: compiling it (is it valid?) takes the scoring threads (scorerSchemaErrors).
const isSchema: Check = (value, path, errors) => {
  if (!isPlainObject(value)) return void errors.push({ path, message: 'must be a JSON Schema object' });
  const problem = schemaShapeProblem(value);
  if (problem) errors.push({ path, message: problem });
};

const isHeaders: Check = (value, path, errors) => {
  if (!isPlainObject(value)) return void errors.push({ path, message: 'must be an object of header names to strings or { "secret": "<name>" }' });
  const entries = Object.entries(value);
  if (entries.length > 50) errors.push({ path, message: 'must hold at most 50 headers' });
  for (const [name, headerValue] of entries) {
    // Credential headers only from a secret, as on targets.
    const message = headerValueProblem(name, headerValue);
    if (message) errors.push({ path: `${path}.${name}`, message });
  }
};

const common = { field: isFieldPath, threshold: isThreshold };

const RULES: Record<ScorerType, ConfigRules> = {
  exact_match: { keys: { ...common, caseSensitive: isBoolean } },
  contains: { keys: { ...common, value: isText, caseSensitive: isBoolean } },
  regex: {
    required: ['pattern'],
    keys: { ...common, pattern: check((v) => typeof v === 'string', 'must be a string'), flags: isRegexFlags },
    together: (config, path, errors) => {
      if (typeof config.pattern !== 'string') return;
      // With bad flags (reported on flags), the pattern is still checked on its own.
      const flags = typeof config.flags === 'string' && REGEX_FLAGS_PATTERN.test(config.flags) ? config.flags : '';
      const problem = regexProblem(config.pattern, flags);
      if (problem) errors.push({ path: `${path}.pattern`, message: problem });
    },
  },
  json_schema: { required: ['schema'], keys: { ...common, schema: isSchema } },
  numeric_tolerance: { required: ['tolerance'], keys: { ...common, tolerance: isTolerance } },
  range: {
    required: ['field'],
    keys: { ...common, min: isFiniteNumber, max: isFiniteNumber },
    together: (config, path, errors) => {
      const { min, max } = config;
      if (min === undefined && max === undefined) errors.push({ path, message: 'needs min, max or both' });
      else if (typeof min === 'number' && typeof max === 'number' && min > max) {
        errors.push({ path: `${path}.max`, message: 'must not be less than min' });
      }
    },
  },
  string_similarity: { keys: { ...common } },
  llm_judge: {
    required: ['baseUrl', 'model', 'rubric'],
    keys: { ...common, baseUrl: isHttpUrl, model: isText, rubric: isText, apiKey: isSecret },
  },
  http: { required: ['url'], keys: { ...common, url: isHttpUrl, headers: isHeaders } },
  video_conformance: { keys: { ...common, ...VIDEO_CONFIG_RULES.video_conformance } },
  video_qa: { required: ['checks'], keys: { ...common, ...VIDEO_CONFIG_RULES.video_qa } },
  video_similarity: { required: ['method'], keys: { ...common, ...VIDEO_CONFIG_RULES.video_similarity } },
};

/**
 * Checks a benchmark's `scorers` as a client sent them (API.md, "Benchmarks") and names
 * every offending field by its path (`scorers[2].config.pattern`), all in one answer.
 * On success, gives each scorer with its name (the type by default) and a config object.
 * Whether the outbound URLs may be called is the outbound library's business, not this one's.
 */
export function validateScorers(raw: unknown, path = 'scorers'): ScorersValidation {
  if (!Array.isArray(raw) || raw.length < 1 || raw.length > MAX_SCORERS) {
    return { ok: false, errors: [{ path, message: `must be an array of 1..${MAX_SCORERS} scorers` }] };
  }
  const errors: ScorerFieldError[] = [];
  const scorers: ScorerSpec[] = [];
  const firstWithName = new Map<string, number>();
  raw.forEach((item, i) => {
    const at = `${path}[${i}]`;
    const spec = toSpec(item, at, errors);
    if (!spec) return;
    const first = firstWithName.get(spec.name);
    if (first === undefined) firstWithName.set(spec.name, i);
    else errors.push({ path: `${at}.name`, message: `repeats the name of ${path}[${first}] ('${spec.name}'): give each scorer its own name` });
    scorers.push(spec);
  });
  return errors.length ? { ok: false, errors } : { ok: true, scorers };
}

/** The normalised scorer, or undefined when its name or type is unusable (errors say why). */
function toSpec(item: unknown, at: string, errors: ScorerFieldError[]): ScorerSpec | undefined {
  if (!isPlainObject(item)) {
    errors.push({ path: at, message: 'must be a scorer object { name?, type, config? }' });
    return undefined;
  }
  for (const key of Object.keys(item)) {
    if (!['name', 'type', 'config'].includes(key)) errors.push({ path: `${at}.${key}`, message: 'is not a field of a scorer (name, type, config)' });
  }
  const { name, type, config = {} } = item;
  const nameOk = name === undefined || (typeof name === 'string' && name.trim() !== '' && name.length <= SCORER_NAME_MAX);
  if (!nameOk) errors.push({ path: `${at}.name`, message: `must be 1..${SCORER_NAME_MAX} characters` });

  if (type === undefined) errors.push({ path: `${at}.type`, message: 'is required' });
  else if (!isScorerType(type)) errors.push({ path: `${at}.type`, message: `must be one of: ${SCORER_TYPES.join(', ')}` });

  if (!isPlainObject(config)) {
    errors.push({ path: `${at}.config`, message: 'must be an object' });
    return undefined;
  }
  // Without a known type the allowed keys are unknown: the type error is the one to fix first.
  if (!isScorerType(type)) return undefined;
  checkConfig(RULES[type], config, `${at}.config`, errors);
  if (!nameOk) return undefined;
  return { name: name ?? type, type, config: copyConfig(config) } as ScorerSpec;
}

function checkConfig(rules: ConfigRules, config: Record<string, unknown>, path: string, errors: ScorerFieldError[]): void {
  for (const key of rules.required ?? []) {
    if (config[key] === undefined) errors.push({ path: `${path}.${key}`, message: 'is required' });
  }
  for (const [key, value] of Object.entries(config)) {
    const checkValue = Object.hasOwn(rules.keys, key) ? rules.keys[key] : undefined;
    if (ENV_NAMING_FIELDS.includes(key)) errors.push({ path: `${path}.${key}`, message: ENV_NAMING_MESSAGE });
    else if (!checkValue) errors.push({ path: `${path}.${key}`, message: `is not an option of this scorer (${Object.keys(rules.keys).join(', ')})` });
    else if (value !== undefined) checkValue(value, `${path}.${key}`, errors);
  }
  rules.together?.(config, path, errors);
}

/** A copy the caller may store: no key left undefined, headers and references not shared with the request body. */
function copyConfig(config: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (value !== undefined) copy[key] = isPlainObject(value) && (key === 'headers' || key === 'apiKey') ? structuredClone(value) : value;
  }
  return copy;
}

function isHttpUrlText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Each scorer type's config keys and the required ones, as checkConfig enforces them (for the OpenAPI document). */
export const SCORER_CONFIG_KEYS: Record<ScorerType, { keys: string[]; required: string[] }> = Object.fromEntries(
  Object.entries(RULES).map(([type, rules]) => [type, { keys: Object.keys(rules.keys), required: rules.required ?? [] }]),
) as Record<ScorerType, { keys: string[]; required: string[] }>;
