import Ajv, { ValidateFunction } from 'ajv';
import { ajvLinearRegExp, LINEAR_REGEX_LIMITS } from './linear-regex';
import { jsonDepth } from './json-depth';

/**
 * A benchmark's schema is compiled to code when the benchmark is created, on a scoring
 * thread under a time limit (never on the event loop: compiling a schema of many patterned
 * properties takes hundreds of milliseconds, growing with its size); its size bounds that work too.
 */
export const SCHEMA_MAX_BYTES = 8 * 1024;
export const SCHEMA_MAX_DEPTH = 32;

const CACHE_MAX = 100;
const compiled = new Map<string, ValidateFunction>();

/**
 * Compiles a benchmark's JSON Schema, once per distinct schema. Each schema gets its own
 * Ajv instance: two benchmarks may use the same `$id` for different schemas. `pattern`
 * and `patternProperties` run on the linear-time engine. Throws ajv's error when the
 * schema is not valid.
 */
export function compileSchema(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  // strict: false accepts the annotations people leave in schemas; logger: false keeps
  // "unknown format ignored" warnings out of the service's logs.
  const validate = new Ajv({ allErrors: true, strict: false, logger: false, code: { regExp: ajvLinearRegExp } }).compile(schema);
  if (compiled.size >= CACHE_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validate);
  return validate;
}

/** Why a client's schema is too big or too deep to be compiled, or null: cheap, fit for the event loop. */
export function schemaShapeProblem(schema: object): string | null {
  const bytes = Buffer.byteLength(JSON.stringify(schema));
  if (bytes > SCHEMA_MAX_BYTES) return `must be at most ${SCHEMA_MAX_BYTES} bytes of JSON (it has ${bytes})`;
  if (jsonDepth(schema, SCHEMA_MAX_DEPTH) > SCHEMA_MAX_DEPTH) return `must nest at most ${SCHEMA_MAX_DEPTH} levels deep`;
  return null;
}

/**
 * Why a client's schema cannot be used (too big, too deep, not valid, a pattern RE2 refuses),
 * or null. It compiles the schema: call it on a scoring thread (ScoringThreads.schemaProblem).
 */
export function schemaProblem(schema: object): string | null {
  const shape = schemaShapeProblem(schema);
  if (shape) return shape;
  try {
    compileSchema(schema);
    return null;
  } catch (err) {
    const message = (err as Error).message;
    // RE2JS's parse errors: the pattern is valid JavaScript, but not for the linear engine.
    if (/error parsing regexp/.test(message)) return `has a pattern that is not supported: ${LINEAR_REGEX_LIMITS}; ${message}`;
    return `is not a valid JSON Schema: ${message}`;
  }
}
