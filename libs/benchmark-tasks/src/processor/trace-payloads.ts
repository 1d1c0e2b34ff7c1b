/** What the gateway accepts for one input or output field of a trace: a bigger one is left out, not sent. */
export const TRACE_PAYLOAD_MAX_BYTES = 1024 * 1024;

/**
 * The value, or a note saying it was left out, when its JSON is larger than a trace may
 * hold or cannot be written at all: the trace of an attempt must always be recorded.
 */
export function boundedPayload(value: unknown, maxBytes = TRACE_PAYLOAD_MAX_BYTES): unknown {
  if (value === undefined) return undefined;
  let json: string;
  try {
    json = JSON.stringify(value) ?? '';
  } catch {
    return { omitted: 'not representable as JSON (nested too deep)' };
  }
  const bytes = Buffer.byteLength(json);
  return bytes > maxBytes ? { omitted: `${bytes} bytes, more than the ${maxBytes} a trace field holds` } : value;
}

/**
 * A copy of the value with every secret cut out of every string, object keys included (a
 * target may echo its key as a property name, or as a usage counter's). Used on a whole
 * trace, so that a target echoing its API key back does not publish it.
 */
export function withoutSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return redact(value, secrets) as T;
}

const cutOut = (text: string, secrets: readonly string[]): string => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);

function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return cutOut(value, secrets);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // Two keys that differ only by a secret would become one: each keeps its value under a key of its own.
      const base = cutOut(key, secrets);
      let redacted = base;
      for (let n = 2; Object.hasOwn(copy, redacted); n++) redacted = `${base} (${n})`;
      // defineProperty: a key `__proto__` stays an ordinary property, as JSON.parse made it.
      Object.defineProperty(copy, redacted, { value: redact(v, secrets), enumerable: true, writable: true, configurable: true });
    }
    return copy;
  }
  return value;
}
