import type { ByteRange } from '@cinetrace/blob-store';

/**
 * The one byte range a `Range` header asks for (`bytes=a-b`, `bytes=a-`, `bytes=-n`), or
 * undefined to answer the whole content: no header, another unit, several ranges, or a
 * header that does not parse (RFC 9110 §14.2 lets a server ignore those). Whether the
 * range fits the content is the blob store's to say (BlobRangeError: 416).
 */
export function requestedRange(header: string | undefined): ByteRange | undefined {
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec((header ?? '').trim());
  if (!match) return undefined;
  const [, first, last] = match;
  if (first === '' && last === '') return undefined;
  if (first === '') return { suffix: Number(last) };
  if (last === '') return { start: Number(first) };
  if (Number(last) < Number(first)) return undefined;
  return { start: Number(first), end: Number(last) };
}
