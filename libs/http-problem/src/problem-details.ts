import { DomainError, ErrorCode, FieldError } from '@cinetrace/contracts';
import { HttpException } from '@nestjs/common';
import { STATUS_FOR_CODE, titleForStatus } from './status-for-code';

/** RFC 9457 problem details, with the API's stable `code` and the request id. */
export interface ProblemDetails {
  type: 'about:blank';
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  requestId: string;
  errors?: FieldError[];
}

export interface Problem {
  body: ProblemDetails;
  /** Seconds, sent as Retry-After (on 429 and 503). */
  retryAfter?: number;
  headers?: Record<string, string>;
}

/** Fastify's own errors (raised while reading the body, before any handler runs). */
const FASTIFY_CODES: Record<string, [ErrorCode, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.InvalidJson, 'The body is not valid JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.InvalidJson, 'The body is empty but the content type says JSON'],
  FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.PayloadTooLarge, 'The body is larger than the limit'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.UnsupportedMediaType, 'Send the body as application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [ErrorCode.ValidationFailed, 'Content-Length does not match the body'],
};

const DEFAULT_RETRY_AFTER = 2;

/** Turns anything thrown while answering a request into the problem the client sees. */
export function toProblem(exception: unknown, requestId: string): Problem {
  const { code, detail, errors, retryAfter, headers } = classify(exception);
  const status = STATUS_FOR_CODE[code];
  const body: ProblemDetails = { type: 'about:blank', title: titleForStatus(status), status, code, detail, requestId };
  if (errors?.length) body.errors = errors;
  const needsRetryAfter = status === 429 || status === 503;
  return { body, retryAfter: needsRetryAfter ? (retryAfter ?? DEFAULT_RETRY_AFTER) : undefined, headers };
}

interface Classified {
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
  retryAfter?: number;
  headers?: Record<string, string>;
}

function classify(exception: unknown): Classified {
  if (exception instanceof DomainError) return exception;
  const fastifyCode = (exception as { code?: string })?.code;
  if (fastifyCode && FASTIFY_CODES[fastifyCode]) {
    const [code, detail] = FASTIFY_CODES[fastifyCode];
    return { code, detail };
  }
  if (exception instanceof SyntaxError) return { code: ErrorCode.InvalidJson, detail: 'The body is not valid JSON' };
  if (exception instanceof HttpException) return fromHttpException(exception);
  const status = (exception as { statusCode?: number })?.statusCode;
  if (status === 413) return { code: ErrorCode.PayloadTooLarge, detail: 'The body is larger than the limit' };
  if (status === 415) return { code: ErrorCode.UnsupportedMediaType, detail: 'Send the body as application/json' };
  // Fastify marks an error of the body's stream 400: the client closed or reset the connection mid-body.
  if (status === 400) return { code: ErrorCode.MalformedRequest, detail: 'The body could not be read: the connection ended before it was complete' };
  return { code: ErrorCode.Internal, detail: 'Internal error' };
}

function fromHttpException(exception: HttpException): Classified {
  switch (exception.getStatus()) {
    case 404:
      return { code: ErrorCode.NotFound, detail: 'No such route' };
    case 405:
      return { code: ErrorCode.MethodNotAllowed, detail: exception.message };
    case 413:
      return { code: ErrorCode.PayloadTooLarge, detail: 'The body is larger than the limit' };
    case 415:
      return { code: ErrorCode.UnsupportedMediaType, detail: 'Send the body as application/json' };
    case 400:
      return { code: ErrorCode.ValidationFailed, detail: exception.message };
    default:
      return { code: ErrorCode.Internal, detail: 'Internal error' };
  }
}
