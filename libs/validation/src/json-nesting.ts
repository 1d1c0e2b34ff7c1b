import type { FieldError } from '@cinetrace/contracts';

/** The deepest JSON the API takes by default: objects and arrays inside one another, the document itself being level 1. */
export const DEFAULT_MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
/** Long keys are cut in the path an error names: the path is for a person to find the place. */
const KEY_SHOWN_MAX = 64;

/**
 * Where a JSON text nests objects and arrays deeper than `maxDepth`: the path of the first
 * container past the limit (`metadata.a[0][0]`, '' for the document itself), or undefined
 * when it does not. It reads the text, not a parsed value, in one iterative pass that stops
 * at the first container too deep: JSON.parse spends about a second on 5 MiB of `[`, and
 * everything after it that walks a value recursively (class-transformer, validators,
 * JSON.stringify on the bus) would overflow the stack on it. Meant to run before JSON.parse;
 * a text that is not JSON at all gives undefined or a path, never an exception.
 */
export function findExcessiveNesting(text: string, maxDepth: number): string | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i);
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > maxDepth) return pathOfContainerAt(text, i);
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) depth--;
  }
  return undefined;
}

/**
 * The field error for JSON nested past `maxDepth`, or undefined when it is not; `at` names
 * where the JSON sits (`args`), or '' for a body (the document itself is then `body`).
 */
export function excessiveNestingError(text: string, maxDepth: number, at = ''): FieldError | undefined {
  const path = findExcessiveNesting(text, maxDepth);
  if (path === undefined) return undefined;
  const joined = at && path && !path.startsWith('[') ? `${at}.${path}` : `${at}${path}`;
  return { path: joined || 'body', message: `nests objects and arrays deeper than ${maxDepth} levels (the document itself being level 1)` };
}

/** The index of the quote that closes the string opening at `open` (text.length if none does). */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

interface Frame {
  array: boolean;
  /** Arrays: the index of the item being read. */
  index: number;
  /** Objects: the key of the member being read. */
  key: string;
  expectingKey: boolean;
}

/** The path of the container opening at `end`, read again from the start (only on the way to a 400). */
function pathOfContainerAt(text: string, end: number): string {
  const frames: Frame[] = [];
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    const top = frames[frames.length - 1];
    if (c === QUOTE) {
      const close = closingQuote(text, i);
      if (top && !top.array && top.expectingKey) {
        top.key = decodeKey(text.slice(i, close + 1));
        top.expectingKey = false;
      }
      i = close;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      frames.push({ array: c === OPEN_ARRAY, index: 0, key: '', expectingKey: c === OPEN_OBJECT });
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      frames.pop();
    } else if (c === COMMA && top) {
      if (top.array) top.index++;
      else top.expectingKey = true;
    }
  }
  let path = '';
  for (const frame of frames) path += frame.array ? `[${frame.index}]` : path ? `.${frame.key}` : frame.key;
  return path;
}

function decodeKey(literal: string): string {
  let key: string;
  try {
    key = JSON.parse(literal) as string;
  } catch {
    key = literal.slice(1, -1);
  }
  return key.length > KEY_SHOWN_MAX ? `${key.slice(0, KEY_SHOWN_MAX)}…` : key;
}
