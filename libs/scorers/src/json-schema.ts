import Ajv, { ValidateFunction } from 'ajv';

const CACHE_MAX = 100;
const compiled = new Map<string, ValidateFunction>();

/**
 * Compiles a benchmark's JSON Schema, once per distinct schema. Each schema gets its own
 * Ajv instance: two benchmarks may use the same `$id` for different schemas. Throws
 * ajv's error when the schema is not valid.
 */
export function compileSchema(schema: object): ValidateFunction {
  const key = JSON.stringify(schema);
  const cached = compiled.get(key);
  if (cached) return cached;
  // strict: false accepts the annotations people leave in schemas; logger: false keeps
  // "unknown format ignored" warnings out of the service's logs.
  const validate = new Ajv({ allErrors: true, strict: false, logger: false }).compile(schema);
  if (compiled.size >= CACHE_MAX) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, validate);
  return validate;
}
