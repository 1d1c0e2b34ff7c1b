export type OutboundErrorReason = 'refused_address' | 'redirect' | 'timeout' | 'too_large' | 'http_status' | 'invalid_json' | 'network' | 'aborted';

/**
 * Why an outbound call failed. The message is written for the API user who configured
 * the URL: it names the host or the status, never header values, the URL's path or
 * query (where keys sometimes travel) or the answer's body.
 */
export class OutboundError extends Error {
  override readonly name = 'OutboundError';

  constructor(
    readonly reason: OutboundErrorReason,
    message: string,
    /** The answer's status, for `redirect` and `http_status`. */
    readonly status?: number,
  ) {
    super(message);
  }
}
