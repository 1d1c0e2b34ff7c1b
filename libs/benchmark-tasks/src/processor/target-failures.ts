import { OutboundError } from '@cinetrace/outbound';
import { TaskAttemptError } from './task-attempt-error';

/**
 * Whether a failed target call is worth another attempt: an overloaded or briefly
 * unreachable target may answer next time; a refused address, a redirect, a 4xx or an
 * answer of the wrong shape will fail the same way again.
 */
export function targetCallFailure(error: unknown): TaskAttemptError {
  if (error instanceof TaskAttemptError) return error;
  if (!(error instanceof OutboundError)) {
    return new TaskAttemptError(`calling the target failed: ${(error as Error)?.message ?? String(error)}`, false);
  }
  // OutboundError messages name the host or the status, never a header, a query or the body.
  return new TaskAttemptError(`calling the target failed: ${error.message}`, isRetryable(error));
}

function isRetryable(error: OutboundError): boolean {
  switch (error.reason) {
    case 'timeout':
    case 'network':
      return true;
    case 'http_status':
      return error.status !== undefined && (error.status >= 500 || error.status === 429);
    case 'refused_address':
    case 'redirect':
    case 'too_large':
    case 'invalid_json':
    case 'aborted': // the attempt itself stopped (deadline or cancel); its own reason is what counts
      return false;
  }
}

/** The target answered, but not what its type promises: asking again gives the same answer. */
export function malformedAnswer(message: string): TaskAttemptError {
  return new TaskAttemptError(message, false);
}

/** The benchmark's target cannot be called as configured (a missing key, no URL): retrying changes nothing. */
export function unusableTarget(message: string): TaskAttemptError {
  return new TaskAttemptError(message, false);
}
