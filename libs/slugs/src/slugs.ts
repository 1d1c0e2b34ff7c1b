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

/** Concurrent creates deriving the same slug: how many times the loser of the unique index tries again. */
export const DERIVED_SLUG_ATTEMPTS = 25;

export interface DerivedSlugInsert<T> {
  /** The slugs already stored that are `base` or `base-<anything>`. */
  taken: (base: string) => Promise<ReadonlySet<string>>;
  /** Stores the row under `slug`; rejects with a collision when a concurrent create took it first. */
  insert: (slug: string) => Promise<T>;
  /** Whether an error of `insert` is the unique index refusing the slug (the store's unique violation). */
  isCollision: (err: unknown) => boolean;
  attempts?: number;
}

/**
 * Stores a row under the first free slug derived from `base` (`firstFreeSlug` over `taken`).
 * When a concurrent create took that slug between the read and the insert, the loser reads
 * the taken slugs again and tries the next one, up to `attempts` times (DERIVED_SLUG_ATTEMPTS);
 * any other error, and the collision of the last attempt, is thrown as it came.
 */
export async function insertWithDerivedSlug<T>(base: string, { taken, insert, isCollision, attempts = DERIVED_SLUG_ATTEMPTS }: DerivedSlugInsert<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const slug = firstFreeSlug(base, await taken(base));
    try {
      return await insert(slug);
    } catch (err) {
      if (!isCollision(err) || attempt >= attempts) throw err;
    }
  }
}
