import { valueAtPath } from './field-path';
import { ScoreInput, ScorerSpec } from './scorer.types';
import { ScorerError } from './scorer-error';

/** The part of the output a scorer looks at: `config.field` of it, else all of it. */
export function scoredOutput(spec: ScorerSpec, item: ScoreInput): unknown {
  const field = spec.config.field;
  if (!field) return item.output;
  const found = valueAtPath(item.output, field);
  if (!found.found) throw new ScorerError(`the output has no field '${field}'`);
  return found.value;
}

/**
 * The expected value to compare with. With `config.field`, an expected object holding that
 * path gives the value there (`{ caption: … }` for field `caption`); otherwise the whole
 * expected value is meant for the field.
 */
export function scoredExpected(spec: ScorerSpec, item: ScoreInput): unknown {
  const field = spec.config.field;
  if (field) {
    const found = valueAtPath(item.expected, field);
    if (found.found) return found.value;
  }
  return item.expected;
}

/** How the text scorers see a value: a string as is, anything else as its JSON. */
export function textView(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/** A number, or the text of one (models answer `"42"`); anything else is an error. */
export function numberView(value: unknown, what: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return Number(value);
  throw new ScorerError(`the ${what} is not a number`);
}

/**
 * JSON with object keys sorted, so `{a, b}` and `{b, a}` compare equal. Strings stay as
 * they are, which makes the number 5 and the text "5" equal too: outputs are often text.
 */
export function comparableText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(sortKeys(value)) ?? '';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
