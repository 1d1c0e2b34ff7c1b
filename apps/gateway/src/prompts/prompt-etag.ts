/**
 * A prompt's entity tag: `"<prompt id>:<version>"`. The id is in it because a version number
 * alone names a different prompt once an identifier is deleted and re-created: a client
 * polling by identifier would get a 304 for content it never saw.
 */
export const promptETag = (id: string, version: number): string => `"${id}:${version}"`;

/**
 * The versions an `If-Match` header (RFC 9110 §13.1.1) accepts for the prompt `id`: its
 * tags `"<id>:<version>"`, and bare `"<version>"` (the route names the prompt already).
 * Absent or `*`: undefined (any version). A header naming no version of this prompt gives
 * an empty list, which then fails as 412.
 */
export function parseIfMatch(header: string | string[] | undefined, id: string): number[] | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return undefined;
  const versions: number[] = [];
  for (const tag of value.split(',')) {
    const match = /^\s*(?:W\/)?"?(?:([^":]+):)?(\d{1,9})"?\s*$/.exec(tag);
    if (match && (match[1] === undefined || match[1] === id)) versions.push(Number(match[2]));
  }
  return versions;
}

/**
 * Whether an `If-None-Match` header (RFC 9110 §13.1.2) names the current tag, so a GET may
 * answer 304: `*`, or any of its tags, compared weakly (`W/"x"` matches `"x"`).
 */
export function ifNoneMatchHolds(header: string | string[] | undefined, current: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '') === current);
}
