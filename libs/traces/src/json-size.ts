/**
 * Whether a JSON value serialises to at most `maxBytes` bytes of UTF-8. A bound read from
 * the value's own lengths settles nearly every field without building its text: a string
 * of n UTF-16 units is at most 6n + 2 bytes (a `\u001f` escape), a number at most 25.
 * Only a value whose bound passes the limit is serialised and measured: a JSON.stringify of
 * every span's attributes, input and output is a large share of ingest's time.
 */
export function fitsJsonBytes(value: unknown, maxBytes: number): boolean {
  if (jsonBytesBound(value, maxBytes) <= maxBytes) return true;
  return Buffer.byteLength(JSON.stringify(value) ?? '') <= maxBytes;
}

const MAX_NUMBER_BYTES = 25; // -1.2345678901234567e-308
const STRING_UNIT_BYTES = 6;

/** An upper bound of the value's JSON bytes; past `limit` it stops counting (any larger answer means "measure it"). */
function jsonBytesBound(value: unknown, limit: number): number {
  if (typeof value === 'string') return STRING_UNIT_BYTES * value.length + 2;
  if (value === null || typeof value !== 'object') return MAX_NUMBER_BYTES; // numbers, booleans, null (and what JSON leaves out)
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      bytes += jsonBytesBound(item, limit) + 1;
      if (bytes > limit) return bytes;
    }
    return bytes;
  }
  for (const key in value) {
    bytes += STRING_UNIT_BYTES * key.length + 4 + jsonBytesBound((value as Record<string, unknown>)[key], limit);
    if (bytes > limit) return bytes;
  }
  return bytes;
}
