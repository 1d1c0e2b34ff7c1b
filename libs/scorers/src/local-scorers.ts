import { distance } from 'fastest-levenshtein';
import { compileSchema } from './json-schema';
import { linearRegex } from './linear-regex';
import { ScoreInput, ScoreOutcome, ScorerSpec, ScorerSpecOf, VideoScorerType } from './scorer.types';
import { ScorerError } from './scorer-error';
import { comparableText, numberView, scoredExpected, scoredOutput, textView } from './scored-values';

type LocalType = Exclude<ScorerSpec['type'], 'llm_judge' | 'http' | VideoScorerType>;
export type LocalScorerSpec = ScorerSpecOf<LocalType>;

const MAX_SCHEMA_ERRORS = 10;

/**
 * Longest text string_similarity compares. Levenshtein costs length × length (bit-parallel:
 * about 70 ms at 20,000 characters each, 430 ms at 50,000), so longer texts are refused
 * with an error rather than scored.
 */
export const SIMILARITY_MAX_CHARS = 20_000;

/** The scorers computed here, without any call out. Synchronous: runScorer runs the costly ones off the event loop. */
export function scoreLocally(spec: LocalScorerSpec, item: ScoreInput): ScoreOutcome {
  switch (spec.type) {
    case 'exact_match':
      return exactMatch(spec, item);
    case 'contains':
      return contains(spec, item);
    case 'regex':
      return regex(spec, item);
    case 'json_schema':
      return jsonSchema(spec, item);
    case 'numeric_tolerance':
      return numericTolerance(spec, item);
    case 'range':
      return range(spec, item);
    case 'string_similarity':
      return stringSimilarity(spec, item);
  }
}

function exactMatch(spec: ScorerSpecOf<'exact_match'>, item: ScoreInput): ScoreOutcome {
  const expected = requireExpected(spec, item);
  const fold = foldCase(spec.config.caseSensitive);
  return allOrNothing(fold(comparableText(scoredOutput(spec, item))) === fold(comparableText(expected)));
}

function contains(spec: ScorerSpecOf<'contains'>, item: ScoreInput): ScoreOutcome {
  const needle = spec.config.value ?? textView(requireExpected(spec, item));
  const fold = foldCase(spec.config.caseSensitive);
  return allOrNothing(fold(textView(scoredOutput(spec, item))).includes(fold(needle)));
}

function regex(spec: ScorerSpecOf<'regex'>, item: ScoreInput): ScoreOutcome {
  // Linear time in the output whatever the pattern; no lastIndex is carried between items.
  const pattern = linearRegex(spec.config.pattern, spec.config.flags ?? '');
  return allOrNothing(pattern.test(textView(scoredOutput(spec, item))));
}

function jsonSchema(spec: ScorerSpecOf<'json_schema'>, item: ScoreInput): ScoreOutcome {
  const validate = compileSchema(spec.config.schema);
  const value = parsedIfJsonText(scoredOutput(spec, item));
  if (validate(value)) return { score: 1, details: null };
  const errors = (validate.errors ?? []).slice(0, MAX_SCHEMA_ERRORS).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'is not valid' }));
  return { score: 0, details: { errors } };
}

function numericTolerance(spec: ScorerSpecOf<'numeric_tolerance'>, item: ScoreInput): ScoreOutcome {
  const actual = numberView(scoredOutput(spec, item), 'output');
  const expected = numberView(requireExpected(spec, item), 'expected value');
  const difference = Math.abs(actual - expected);
  return { score: difference <= spec.config.tolerance ? 1 : 0, details: { difference } };
}

function range(spec: ScorerSpecOf<'range'>, item: ScoreInput): ScoreOutcome {
  const value = numberView(scoredOutput(spec, item), `output's ${spec.config.field}`);
  const { min = -Infinity, max = Infinity } = spec.config;
  return { score: value >= min && value <= max ? 1 : 0, details: { value } };
}

function stringSimilarity(spec: ScorerSpecOf<'string_similarity'>, item: ScoreInput): ScoreOutcome {
  const a = textView(scoredOutput(spec, item));
  const b = textView(requireExpected(spec, item));
  const longest = Math.max(a.length, b.length);
  if (longest > SIMILARITY_MAX_CHARS) {
    throw new ScorerError(`compares texts of up to ${SIMILARITY_MAX_CHARS} characters; this ${a.length > b.length ? 'output' : 'expected value'} has ${longest}`);
  }
  if (longest === 0) return { score: 1, details: { distance: 0 } };
  const edits = distance(a, b);
  return { score: 1 - edits / longest, details: { distance: edits } };
}

function requireExpected(spec: ScorerSpec, item: ScoreInput): unknown {
  const expected = scoredExpected(spec, item);
  if (expected === undefined || expected === null) throw new ScorerError('the item has no expected value to compare with');
  return expected;
}

/**
 * Outputs are often JSON held as text; a string that parses to an object or array is
 * checked as that value, any other value as it is.
 */
function parsedIfJsonText(value: unknown): unknown {
  if (typeof value !== 'string' || !/^\s*[[{]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

const foldCase =
  (caseSensitive = true) =>
  (text: string) =>
    caseSensitive ? text : text.toLowerCase();
const allOrNothing = (ok: boolean): ScoreOutcome => ({ score: ok ? 1 : 0, details: null });
