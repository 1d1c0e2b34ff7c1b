import { RE2JS } from 're2js';

/**
 * Users' regular expressions (the regex scorer, a JSON Schema's `pattern`) run on RE2JS, a
 * pure-JavaScript port of RE2: matching time is linear in the text, whatever the pattern,
 * so `^(a+)+$` cannot backtrack for minutes. Pure JavaScript rather than the native `re2`
 * bindings: nothing to compile at install (no toolchain, no Node headers), and a thread
 * running it can be stopped like any JavaScript.
 *
 * RE2 has no backreferences and no lookaround: such patterns are refused when a benchmark
 * is created (regexProblem), never silently matched differently.
 */
export interface LinearRegex {
  test(text: string): boolean;
}

/** Longest pattern a scorer may hold: RE2 compiles in time and memory that grow with it. */
export const REGEX_PATTERN_MAX = 2000;

export const LINEAR_REGEX_LIMITS =
  'scorers match regular expressions in linear time (RE2 syntax), which has no backreferences (\\1, \\k<name>) and no lookahead or lookbehind ((?=, (?!, (?<=, (?<!)';

/** JavaScript flags as RE2JS options. `g` changes nothing for one test; `y` anchors at the start; `u` is RE2's default. */
export function compileLinearRegex(pattern: string, flags = ''): LinearRegex {
  let options = 0;
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) options |= RE2JS.MULTILINE;
  if (flags.includes('s')) options |= RE2JS.DOTALL;
  // The translation would read `\k<name>` as the letters `k<name>`: a backreference must be refused, not changed.
  if (NAMED_BACKREFERENCE.test(pattern)) throw new Error('a backreference (\\k<name>) cannot be matched in linear time');
  const translated = RE2JS.translateRegExp(pattern);
  const compiled = RE2JS.compile(flags.includes('y') ? `\\A(?:${translated})` : translated, options);
  return { test: (text) => compiled.matcher(text).find() };
}

/**
 * Why a pattern cannot be used, or null: first as JavaScript (the syntax users write), then
 * on the linear engine, whose refusal of backreferences and lookaround is spelled out.
 */
export function regexProblem(pattern: string, flags = ''): string | null {
  if (pattern.length > REGEX_PATTERN_MAX) return `must be at most ${REGEX_PATTERN_MAX} characters`;
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    return `is not a valid regular expression: ${(err as Error).message}`;
  }
  try {
    compileLinearRegex(pattern, flags);
    return null;
  } catch (err) {
    return `is not supported: ${LINEAR_REGEX_LIMITS}; ${(err as Error).message}`;
  }
}

/** `\k` after an even run of backslashes: an escape, not an escaped backslash followed by `k`. */
const NAMED_BACKREFERENCE = /(^|[^\\])(\\\\)*\\k/;

const CACHE_MAX = 200;
const cache = new Map<string, LinearRegex>();

/** A compiled regex per pattern and flags: a run tests the same few patterns on every item. */
export function linearRegex(pattern: string, flags = ''): LinearRegex {
  const key = `${flags}/${pattern}`;
  let regex = cache.get(key);
  if (!regex) {
    regex = compileLinearRegex(pattern, flags);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, regex);
  }
  return regex;
}

/**
 * Ajv's `code.regExp` engine on the linear engine. Ajv asks for `.code` (what standalone
 * code would call) and keys compiled patterns by `toString()`.
 */
export const ajvLinearRegExp = Object.assign(
  (pattern: string, u: string) => {
    const regex = compileLinearRegex(pattern, u);
    return { test: regex.test, toString: () => `/${pattern}/${u}` };
  },
  { code: 'linearRegExp' },
);
