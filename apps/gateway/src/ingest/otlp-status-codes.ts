/**
 * The gRPC status code for each HTTP status the gateway answers: what an OTLP/HTTP error's
 * google.rpc.Status body carries (its HTTP status and Retry-After say whether to retry).
 */
export const GRPC_CODE_FOR_HTTP_STATUS: Readonly<Record<number, number>> = {
  400: 3, // INVALID_ARGUMENT
  401: 16, // UNAUTHENTICATED
  403: 7, // PERMISSION_DENIED
  404: 5, // NOT_FOUND
  408: 4, // DEADLINE_EXCEEDED
  413: 8, // RESOURCE_EXHAUSTED
  415: 3, // INVALID_ARGUMENT
  429: 8, // RESOURCE_EXHAUSTED
  500: 13, // INTERNAL
  503: 14, // UNAVAILABLE
};

/**
 * Over OTLP/gRPC the status code alone decides a retry: the OTLP specification has exporters
 * retry UNAVAILABLE (14) always and RESOURCE_EXHAUSTED only with a RetryInfo. So throttling
 * is UNAVAILABLE there (with a RetryInfo), and a message over the limit INVALID_ARGUMENT (3).
 */
export const GRPC_CODE_FOR_HTTP_STATUS_OVER_GRPC: Readonly<Record<number, number>> = {
  ...GRPC_CODE_FOR_HTTP_STATUS,
  413: 3,
  429: 14,
};
