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
