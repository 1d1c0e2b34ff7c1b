/**
 * The versions an `If-Match` header accepts (RFC 9110 §13.1.1), for resources whose
 * ETag is `"<version>"`. Absent or `*`: undefined (any version). A header naming no
 * version we could ever have gives an empty list, which then fails as 412.
 */
export function parseIfMatch(header: string | string[] | undefined): number[] | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return undefined;
  const versions: number[] = [];
  for (const tag of value.split(',')) {
    const match = /^\s*(?:W\/)?"?(\d{1,9})"?\s*$/.exec(tag);
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

export const versionETag = (version: number): string => `"${version}"`;

/**
 * Whether an `If-None-Match` header (RFC 9110 §13.1.2) names the current version, so a
 * GET may answer 304: `*`, or any of its tags, compared weakly (`W/"3"` matches `"3"`).
 */
export function ifNoneMatchHolds(header: string | string[] | undefined, current: number): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value.trim() === '*') return true;
  return value.split(',').some((tag) => /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(tag)?.[1] === String(current));
}
