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
 * A copy of the value with every secret cut out of every string. Used on a whole trace, so
 * that a target echoing its API key back does not publish it.
 */
export function withoutSecrets<T>(value: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return value;
  return redact(value, secrets) as T;
}

function redact(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return secrets.reduce((text, secret) => text.split(secret).join('[redacted]'), value);
  if (Array.isArray(value)) return value.map((v) => redact(v, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, redact(v, secrets)]));
  }
  return value;
}
