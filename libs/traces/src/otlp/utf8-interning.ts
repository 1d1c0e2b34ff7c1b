/**
 * UTF-8 strings read off protobuf bodies, short ones interned. An export repeats the same
 * short strings on every span (attribute keys, MIME types, model names, span kinds: most of
 * its strings), and finding one here is cheaper than decoding it anew in `utf8Slice`.
 * Keyed by the bytes themselves (a hash, then a byte comparison), so a hit is exactly the
 * string that decoding would give, whoever sent it.
 */

/** Longer strings are decoded as they come: payloads, ids in text, messages. */
const MAX_INTERNED_BYTES = 32;
/** Entries at most; past it the table starts again (a body of many distinct short strings costs a clear, not memory). */
const MAX_ENTRIES = 4096;

interface Interned {
  bytes: Buffer;
  text: string;
}

const interned = new Map<number, Interned>();

/** Node's own decoder behind `toString('utf8', …)`, without its argument checks (protobufjs reads strings with it too). */
const utf8Slice = (buf: Buffer, start: number, end: number): string => (buf as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end);

/** The UTF-8 text of `buf[start, end)`, as Node decodes it (invalid sequences as U+FFFD). */
export function utf8Text(buf: Buffer, start: number, end: number): string {
  const length = end - start;
  if (length > MAX_INTERNED_BYTES) return utf8Slice(buf, start, end);
  // FNV-1a over the bytes, with the length mixed in.
  let hash = 0x811c9dc5 ^ length;
  for (let at = start; at < end; at++) hash = Math.imul(hash ^ buf[at], 0x01000193);
  const found = interned.get(hash);
  if (found !== undefined && sameBytes(found.bytes, buf, start, length)) return found.text;
  const text = utf8Slice(buf, start, end);
  if (interned.size >= MAX_ENTRIES) interned.clear();
  // A copy: `buf` is the request's body, which must not be kept alive by the table.
  interned.set(hash, { bytes: Buffer.from(buf.subarray(start, end)), text });
  return text;
}

function sameBytes(known: Buffer, buf: Buffer, start: number, length: number): boolean {
  if (known.length !== length) return false;
  for (let i = 0; i < length; i++) if (known[i] !== buf[start + i]) return false;
  return true;
}
