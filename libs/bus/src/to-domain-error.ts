import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { TimeoutError } from 'rxjs';

/** Seconds a client should wait before retrying when the bus or a service is down. */
export const BUS_RETRY_AFTER_SECONDS = 2;

/**
 * Maps whatever a bus request failed with to a DomainError. A service's error arrives
 * as its payload (over Kafka, as a JSON header); anything else means the transport or
 * the service could not be reached, which the client sees as a 503 worth retrying.
 */
export function toDomainError(err: unknown): DomainError {
  if (err instanceof DomainError) return err;
  const payload = decode(err);
  if (payload && typeof payload === 'object' && 'code' in payload) return DomainError.fromPayload(payload);
  const detail = err instanceof TimeoutError ? 'A backing service did not answer in time' : 'A backing service is unreachable';
  return new DomainError(ErrorCode.Unavailable, detail, undefined, BUS_RETRY_AFTER_SECONDS);
}

function decode(err: unknown): unknown {
  const text = Buffer.isBuffer(err) ? err.toString('utf8') : typeof err === 'string' ? err : undefined;
  if (text === undefined) return err;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
