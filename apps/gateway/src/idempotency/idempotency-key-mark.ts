/**
 * Marks, in the OpenAPI document, a POST operation that does not take `Idempotency-Key`:
 * `refused` where the answer holds a secret shown once (SecretInAnswer), `ignored` where the
 * route is idempotent by itself (OTLP exports, by span ids). The document's refinement
 * reads it, and leaves the header out there.
 */
export const IDEMPOTENCY_KEY_MARK = 'x-idempotency-key';
export type IdempotencyKeyMark = 'refused' | 'ignored';
