/**
 * Human-readable identifiers derived from names (`Video Gen / Prod` → `video-gen-prod`):
 * accents folded, everything but letters and digits collapsed to single hyphens, cut
 * to `maxLength` without a trailing hyphen. May return '' when the name has no letter
 * or digit; the caller decides the fallback.
 */
export function slugify(name: string, maxLength: number): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/, '');
}

/** `base`, then `base-2`, `base-3` …: the first not in `taken`. */
export function firstFreeSlug(base: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Room a derived slug keeps for a collision suffix (`-9999`). */
export const SLUG_SUFFIX_ROOM = 5;
