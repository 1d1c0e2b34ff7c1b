/** Errors end up in the task a user reads: long enough to explain, short enough to list. */
export const MAX_ERROR_LENGTH = 300;

/**
 * Why one attempt of a task failed. The message is shown to the benchmark's owner as the
 * task's `error`; `retryable` tells the caller whether another attempt may fare better.
 */
export class TaskAttemptError extends Error {
  override readonly name = 'TaskAttemptError';

  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

/** A message fit for users: every secret cut out (before bounding, so no half secret survives), then bounded. */
export function userFacing(text: string, secrets: readonly string[] = []): string {
  const redacted = secrets.filter((s) => s.length > 0).reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  return redacted.length > MAX_ERROR_LENGTH ? `${redacted.slice(0, MAX_ERROR_LENGTH)}…` : redacted;
}
