import { PROMPT_IDENTIFIER_MAX } from '@cinetrace/contracts';
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
 * The content with each `{{name}}` replaced by `values[name]` (numbers and booleans as
 * written in JSON), and the placeholders no value was given for. Values are inserted as
 * they are, never scanned for placeholders in turn.
 */
export function fillVariables(content: string, values: Record<string, string | number | boolean>): { content: string; missing: string[] } {
  const missing = new Set<string>();
  const filled = content.replace(PLACEHOLDER, (placeholder, name: string) => {
    if (!Object.hasOwn(values, name)) {
      missing.add(name);
      return placeholder;
    }
    return String(values[name]);
  });
  return { content: filled, missing: [...missing] };
}
