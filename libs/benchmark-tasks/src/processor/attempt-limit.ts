import { TaskAttemptError } from './task-attempt-error';

/**
 * The bounds of one attempt: a deadline `timeoutMs` after its start, and the caller's abort
 * signal. `race` lets a step lose to whichever strikes first; `throwIfStopped` keeps work
 * that outlived the race (an answer arriving late) from going on to its next step.
 */
export class AttemptLimit {
  private readonly deadline: number;
  private readonly timer: NodeJS.Timeout;
  private readonly stopped: Promise<never>;
  private rejectStopped!: (reason: TaskAttemptError) => void;
  private reason: TaskAttemptError | null = null;
  private readonly stopController = new AbortController();
  /** Aborted when the attempt stops (deadline or cancel): outbound calls in flight drop their connection. */
  readonly signal: AbortSignal = this.stopController.signal;
  private readonly onAbort = (): void => this.stop(new TaskAttemptError('cancelled', false));

  constructor(
    private readonly timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
    private readonly now: () => number,
  ) {
    this.deadline = now() + timeoutMs;
    this.stopped = new Promise<never>((_, reject) => (this.rejectStopped = reject));
    this.stopped.catch(() => undefined); // nobody may be racing it when it strikes
    this.timer = setTimeout(() => this.stop(this.timedOut()), timeoutMs);
    callerSignal?.addEventListener('abort', this.onAbort, { once: true });
    if (callerSignal?.aborted) this.onAbort();
  }

  /** Milliseconds until the deadline, never negative. */
  remainingMs(): number {
    return Math.max(0, this.deadline - this.now());
  }

  throwIfStopped(): void {
    if (this.reason) throw this.reason;
  }

  /**
   * A call bounded by the deadline ran out of time: the attempt is over now. Without this, the
   * call's own timer and the attempt's could fire in either order and tell two stories.
   */
  expire(): never {
    this.stop(this.timedOut());
    throw this.reason as TaskAttemptError; // set by stop(), or earlier by a cancel
  }

  /** The step's result, unless the deadline or the signal strikes first. */
  race<T>(step: Promise<T>): Promise<T> {
    return Promise.race([step, this.stopped]);
  }

  /** Releases the timer and the signal listener; call it once the attempt settled. */
  dispose(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onAbort);
  }

  private timedOut(): TaskAttemptError {
    return new TaskAttemptError(`timed out after ${this.timeoutMs} ms`, true);
  }

  private stop(reason: TaskAttemptError): void {
    if (this.reason) return;
    this.reason = reason;
    this.rejectStopped(reason);
    this.stopController.abort();
    this.dispose();
  }
}
