import { ErrorCode, isErrorCode } from './error-codes';

/** One offending input field, named by its path (`spans[2].startTime`). */
export interface FieldError {
  path: string;
  message: string;
}

/** The serialisable form of a domain error: what crosses the bus. */
export interface DomainErrorPayload {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  /** Seconds, for `rate_limited`, `quota_exceeded` and `unavailable`. */
  retryAfter?: number;
}

/**
 * An error a service means to report to the client. It carries a code, never an
 * HTTP status: the gateway maps codes to statuses.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly retryAfter?: number,
  ) {
    super(detail);
    this.name = 'DomainError';
  }

  static validation(errors: FieldError[], detail = 'The request is not valid'): DomainError {
    return new DomainError(ErrorCode.ValidationFailed, detail, errors);
  }

  static notFound(detail: string): DomainError {
    return new DomainError(ErrorCode.NotFound, detail);
  }

  toPayload(): DomainErrorPayload {
    const payload: DomainErrorPayload = { code: this.code, detail: this.detail };
    if (this.errors) payload.errors = this.errors;
    if (this.retryAfter !== undefined) payload.retryAfter = this.retryAfter;
    return payload;
  }

  /** Rebuilds the error from what came over the bus; anything unrecognised is `internal`. */
  static fromPayload(value: unknown): DomainError {
    if (value && typeof value === 'object' && isErrorCode((value as DomainErrorPayload).code)) {
      const p = value as DomainErrorPayload;
      return new DomainError(p.code, typeof p.detail === 'string' ? p.detail : p.code, p.errors, p.retryAfter);
    }
    return new DomainError(ErrorCode.Internal, 'Internal error');
  }
}
