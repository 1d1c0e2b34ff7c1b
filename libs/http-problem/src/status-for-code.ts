import { ErrorCode } from '@cinetrace/contracts';

/** The HTTP status of each domain error code: the only place codes meet statuses. */
export const STATUS_FOR_CODE: Record<ErrorCode, number> = {
  invalid_json: 400,
  validation_failed: 400,
  invalid_cursor: 400,
  project_mismatch: 400,
  missing_variables: 400,
  unauthenticated: 401,
  project_key_required: 401,
  invalid_project_key: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  run_in_progress: 409,
  gate_failed: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  unsupported_media_type: 415,
  malformed_request: 400,
  request_timeout: 408,
  uri_too_long: 414,
  headers_too_large: 431,
  idempotency_key_reused: 422,
  quota_exceeded: 429,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const titleForStatus = (status: number): string => TITLES[status] ?? 'Error';
