import { PROMPT_CONTENT_MAX, PROMPT_IDENTIFIER_MAX } from '@cinetrace/contracts';
import { SLUG_SUFFIX_ROOM, slugify } from '@cinetrace/slugs';

/** `Intro Shot` → `intro-shot`; a name with no letter or digit gives `prompt`. */
export function deriveIdentifier(name: string): string {
  return slugify(name, PROMPT_IDENTIFIER_MAX - SLUG_SUFFIX_ROOM) || 'prompt';
}

const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*\}\}/g;

/** The distinct `{{name}}` placeholders of a prompt's content, in order of first use. */
export function extractVariables(content: string): string[] {
  const names = new Set<string>();
  for (const match of content.matchAll(PLACEHOLDER)) names.add(match[1]);
  return [...names];
}

/**
 * The longest rendered content: ten times the longest stored content. One long value named
 * by thousands of placeholders would otherwise build a string of gigabytes (holding the
 * event loop while it is built), or throw V8's RangeError past ~512 MB.
 */
export const RENDERED_CONTENT_MAX = 10 * PROMPT_CONTENT_MAX;

/**
 * The content with each `{{name}}` replaced by `values[name]` (numbers and booleans as
 * written in JSON), and the placeholders no value was given for. Values are inserted as
 * they are, never scanned for placeholders in turn. `tooLong` when the result would pass
 * RENDERED_CONTENT_MAX characters: then no content is built.
 */
export function fillVariables(content: string, values: Record<string, string | number | boolean>): { content: string; missing: string[]; tooLong?: true } {
  const missing = new Set<string>();
  let length = content.length;
  for (const [placeholder, name] of content.matchAll(PLACEHOLDER)) {
    if (Object.hasOwn(values, name)) length += String(values[name]).length - placeholder.length;
    if (length > RENDERED_CONTENT_MAX) return { content: '', missing: [], tooLong: true };
  }
  const filled = content.replace(PLACEHOLDER, (placeholder, name: string) => {
    if (!Object.hasOwn(values, name)) {
      missing.add(name);
      return placeholder;
    }
    return String(values[name]);
  });
  return { content: filled, missing: [...missing] };
}
