/**
 * Stable, machine-readable error codes of the public API (API.md, "Errors").
 * Clients match on these strings: never rename one.
 */
export const ErrorCode = {
  InvalidJson: 'invalid_json',
  ValidationFailed: 'validation_failed',
  InvalidCursor: 'invalid_cursor',
  Unauthenticated: 'unauthenticated',
  ProjectKeyRequired: 'project_key_required',
  InvalidProjectKey: 'invalid_project_key',
  /** A known key used beyond its scopes: the one 403 (the caller and the resource are both theirs). */
  InsufficientScope: 'insufficient_scope',
  ProjectMismatch: 'project_mismatch',
  NotFound: 'not_found',
  MethodNotAllowed: 'method_not_allowed',
  Conflict: 'conflict',
  RunInProgress: 'run_in_progress',
  /** A release's gate refused the version: no passing run of its benchmark (the run and scores are in the answer). */
  GateFailed: 'gate_failed',
  /** Frames, storyboards and annotations need a probed media (`ready`) with a picture or a duration. */
  MediaNotReady: 'media_not_ready',
  /** A render left placeholders unfilled; `errors` names each. */
  MissingVariables: 'missing_variables',
  PreconditionFailed: 'precondition_failed',
  IdempotencyKeyReused: 'idempotency_key_reused',
  PayloadTooLarge: 'payload_too_large',
  /** A Range past the end of the bytes; the answer's Content-Range names their size. */
  RangeNotSatisfiable: 'range_not_satisfiable',
  UnsupportedMediaType: 'unsupported_media_type',
  /** Not HTTP the server can read: a malformed request line or header, a URL whose %-escapes are not UTF-8. */
  MalformedRequest: 'malformed_request',
  /** The request (its headers, or its body) did not arrive within the server's time limits. */
  RequestTimeout: 'request_timeout',
  UriTooLong: 'uri_too_long',
  HeadersTooLarge: 'headers_too_large',
  QuotaExceeded: 'quota_exceeded',
  RateLimited: 'rate_limited',
  Unavailable: 'unavailable',
  Internal: 'internal',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const KNOWN_CODES = new Set<string>(Object.values(ErrorCode));

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && KNOWN_CODES.has(value);
}
