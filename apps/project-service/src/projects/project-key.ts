import { PROJECT_KEY_PATTERN } from '@cinetrace/contracts';

const MAX_KEY = 48;
/** Room kept for a collision suffix (`-999`), so a derived key never exceeds the limit. */
const MAX_BASE = MAX_KEY - 4;

/**
 * The key a project gets from its name when none is given: `Video Gen / Prod` →
 * `video-gen-prod`. Accents are folded, other characters become single hyphens; a
 * name that yields no valid key (too short, or starting with a digit) is prefixed
 * with `project`.
 */
export function deriveProjectKey(name: string): string {
  let key = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!/^[a-z]/.test(key) || key.length < 3) key = key ? `project-${key}` : 'project';
  key = key.slice(0, MAX_BASE).replace(/-+$/, '');
  return PROJECT_KEY_PATTERN.test(key) ? key : 'project';
}

/** `base`, then `base-2`, `base-3` …: the first not in `taken`. */
export function firstFreeKey(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
