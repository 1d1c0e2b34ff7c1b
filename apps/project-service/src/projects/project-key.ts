import { PROJECT_KEY_PATTERN } from '@cinetrace/contracts';
import { SLUG_SUFFIX_ROOM, slugify } from '@cinetrace/slugs';

const MAX_KEY = 48;

/**
 * The key a project gets from its name when none is given: `Video Gen / Prod` →
 * `video-gen-prod`. A name that yields no valid key (too short, or starting with a
 * digit) is prefixed with `project`.
 */
export function deriveProjectKey(name: string): string {
  let key = slugify(name, MAX_KEY - SLUG_SUFFIX_ROOM);
  if (!/^[a-z]/.test(key) || key.length < 3) key = key ? `project-${key}` : 'project';
  key = key.slice(0, MAX_KEY - SLUG_SUFFIX_ROOM).replace(/-+$/, '');
  return PROJECT_KEY_PATTERN.test(key) ? key : 'project';
}
