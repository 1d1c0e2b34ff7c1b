/** A dot path into a value: `caption`, `video.durationSeconds`, `frames.0`. */
export const FIELD_PATH_PATTERN = /^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/;

export type PathLookup = { found: true; value: unknown } | { found: false };

/**
 * Follows a dot path through objects and arrays. Only own properties count, so a path
 * like `constructor` or `__proto__` never reaches into the prototype chain.
 */
export function valueAtPath(root: unknown, path: string): PathLookup {
  let value = root;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return { found: false };
    value = (value as Record<string, unknown>)[key];
  }
  return value === undefined ? { found: false } : { found: true, value };
}
