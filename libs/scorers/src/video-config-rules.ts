import { CONFORMANCE_FIELDS, QA_DEFAULTS, SIMILARITY_METHODS, VIDEO_QA_CHECKS, type VideoQaCheck } from '@cinetrace/media-tools';
import type { ScorerFieldError } from './scorer.types';

type Check = (value: unknown, path: string, errors: ScorerFieldError[]) => void;

/** A run id as the service makes them (`run_` and a lower-case ULID). */
export const RUN_ID_PATTERN = /^run_[0-9a-z]{26}$/;
const CODEC_MAX = 50;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
const number =
  (min: number, max: number, integer = false): Check =>
  (value, path, errors) => {
    const ok = typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value));
    if (!ok) errors.push({ path, message: `must be ${integer ? 'an integer' : 'a number'} in ${min}..${max}` });
  };
const boolean: Check = (value, path, errors) => {
  if (typeof value !== 'boolean') errors.push({ path, message: 'must be true or false' });
};
const codec: Check = (value, path, errors) => {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(value) || value.length > CODEC_MAX)
    errors.push({ path, message: `must be a codec name like h264 (1..${CODEC_MAX} letters, digits, ., _ or -)` });
};

/** An object whose keys each have their own check; an unknown key is named. */
const objectOf =
  (keys: Record<string, Check>, what: string, together?: (value: Record<string, unknown>, path: string, errors: ScorerFieldError[]) => void): Check =>
  (value, path, errors) => {
    if (!isObject(value)) return void errors.push({ path, message: `must be an object of ${what}` });
    for (const [key, item] of Object.entries(value)) {
      if (!Object.hasOwn(keys, key)) errors.push({ path: `${path}.${key}`, message: `is not one of ${Object.keys(keys).join(', ')}` });
      else if (item !== undefined) keys[key](item, `${path}.${key}`, errors);
    }
    together?.(value, path, errors);
  };

const MAX_MS = 600_000;
const duration = number(0, MAX_MS, true);
const decibels = number(-120, 0);

/** video_conformance's `expected`: the fields of a spec (none required: each is checked only when given). */
const conformanceSpec = objectOf(
  {
    width: number(1, 16_384, true),
    height: number(1, 16_384, true),
    fps: number(0.001, 1000),
    durationMs: number(0, 86_400_000, true),
    toleranceMs: duration,
    hasAudio: boolean,
    codec,
  },
  `${[...CONFORMANCE_FIELDS, 'toleranceMs'].join(', ')}`,
);

/** Each check's thresholds, with the same keys as QA_DEFAULTS. */
const THRESHOLD_RULES: { [C in VideoQaCheck]: Record<keyof (typeof QA_DEFAULTS)[C], Check> } = {
  black: { minDurationMs: duration, pixelThreshold: number(0, 1), pictureThreshold: number(0, 1) },
  freeze: { minDurationMs: duration, noiseDb: decibels },
  flicker: { maxMeanDiff: number(0, 255), windowMs: number(40, 10_000, true) },
  blur: { max: number(0, 1000), minDurationMs: duration },
  silence: { minDurationMs: duration, noiseDb: decibels },
  loudness: { minLufs: number(-100, 0), maxLufs: number(-100, 0) },
  flashes: { maxPerSecond: number(0, 60) },
};

const thresholds = objectOf(
  Object.fromEntries(
    VIDEO_QA_CHECKS.map((check: VideoQaCheck) => [
      check,
      objectOf(THRESHOLD_RULES[check], Object.keys(THRESHOLD_RULES[check]).join(', '), (value, path, errors) => {
        if (check === 'loudness' && typeof value.minLufs === 'number' && typeof value.maxLufs === 'number' && value.minLufs > value.maxLufs) {
          errors.push({ path: `${path}.maxLufs`, message: 'must not be less than minLufs' });
        }
      }),
    ]),
  ),
  'checks to their thresholds',
);

const checks: Check = (value, path, errors) => {
  if (!Array.isArray(value) || value.length === 0) return void errors.push({ path, message: `must be a non-empty array of: ${VIDEO_QA_CHECKS.join(', ')}` });
  value.forEach((check, i) => {
    if (!(VIDEO_QA_CHECKS as readonly unknown[]).includes(check)) errors.push({ path: `${path}[${i}]`, message: `must be one of: ${VIDEO_QA_CHECKS.join(', ')}` });
    else if (value.indexOf(check) !== i) errors.push({ path: `${path}[${i}]`, message: `repeats '${String(check)}'` });
  });
};

const method: Check = (value, path, errors) => {
  if (!(SIMILARITY_METHODS as readonly unknown[]).includes(value)) errors.push({ path, message: `must be one of: ${SIMILARITY_METHODS.join(', ')}` });
};

const runId: Check = (value, path, errors) => {
  if (typeof value !== 'string' || !RUN_ID_PATTERN.test(value)) errors.push({ path, message: 'must be a run id (run_…)' });
};

const reference: Check = (value, path, errors) => {
  if (value === 'expected') return;
  if (!isObject(value) || value.runId === undefined) return void errors.push({ path, message: 'must be "expected" or { "runId": "run_…" }' });
  objectOf({ runId }, 'runId')(value, path, errors);
};

/** The config keys of the video scorers besides `field` and `threshold` (API.md, Benchmarks, "Video scorers"). */
export const VIDEO_CONFIG_RULES = {
  video_conformance: { expected: conformanceSpec },
  video_qa: { checks, thresholds },
  video_similarity: { method, reference },
} satisfies Record<string, Record<string, Check>>;

const numberSchema = (minimum: number, maximum: number, integer = false) => ({ type: integer ? 'integer' : 'number', minimum, maximum });

/** The thresholds' JSON Schema, from the same table the checks use (for the OpenAPI document). */
const thresholdSchemas = Object.fromEntries(
  VIDEO_QA_CHECKS.map((check: VideoQaCheck) => [
    check,
    {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(Object.entries(QA_DEFAULTS[check]).map(([key, value]) => [key, { type: 'number', default: value }])),
    },
  ]),
);

/** Each video scorer's config keys as JSON Schema (the gateway's OpenAPI document); the checks above are what is enforced. */
export const VIDEO_CONFIG_SCHEMAS: Record<keyof typeof VIDEO_CONFIG_RULES, Record<string, object>> = {
  video_conformance: {
    expected: {
      type: 'object',
      additionalProperties: false,
      description: "The spec the output's probe must match; without it, these fields of the item's expected value",
      properties: {
        width: numberSchema(1, 16_384, true),
        height: numberSchema(1, 16_384, true),
        fps: { type: 'number', exclusiveMinimum: 0, maximum: 1000, description: 'Matches within 1%' },
        durationMs: numberSchema(0, 86_400_000, true),
        toleranceMs: { ...numberSchema(0, MAX_MS, true), default: 100 },
        hasAudio: { type: 'boolean' },
        codec: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,50}$', example: 'h264' },
      },
      example: { width: 1280, height: 720, fps: 24, durationMs: 5000 },
    },
  },
  video_qa: {
    checks: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...VIDEO_QA_CHECKS] }, example: ['black', 'freeze', 'flicker'] },
    thresholds: { type: 'object', additionalProperties: false, properties: thresholdSchemas, example: { black: { minDurationMs: 250 } } },
  },
  video_similarity: {
    method: { enum: [...SIMILARITY_METHODS] },
    reference: {
      oneOf: [
        { const: 'expected', description: "The item's expected media (config.field of it when it has that field)" },
        { type: 'object', additionalProperties: false, required: ['runId'], properties: { runId: { type: 'string', pattern: RUN_ID_PATTERN.source } } },
      ],
      default: 'expected',
    },
  },
};
