/**
 * Why an attempt was stopped from outside: its run was cancelled; this worker is shutting
 * down and hands the job back to the queue; or it is going away at once and leaves the
 * job to the other workers' stalled checks.
 */
export type StopReason = 'cancelled' | 'handover' | 'abandoned';

/** One attempt running on this worker: the signal handed to the processor and why it fired. */
export class ActiveAttempt {
  private readonly controller = new AbortController();
  private reason?: StopReason;

  constructor(
    readonly runId: string,
    private readonly release: (attempt: ActiveAttempt) => void,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopReason(): StopReason | undefined {
    return this.reason;
  }

  stop(reason: StopReason): void {
    if (this.reason) return;
    this.reason = reason;
    this.controller.abort(new Error(reason === 'cancelled' ? 'the run was cancelled' : 'the worker is shutting down'));
  }

  /** The attempt is over: later cancellations no longer concern it. */
  end(): void {
    this.release(this);
  }
}

/** How long a cancelled run is remembered, for a job fetched just before its run was cancelled. */
const REMEMBER_CANCELLED_MS = 10 * 60 * 1000;

/** The attempts a worker is running, by run, so that a cancellation naming a run reaches each of them. */
export class ActiveAttempts {
  private readonly byRun = new Map<string, Set<ActiveAttempt>>();
  private readonly cancelledRuns = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Registers an attempt; one of a run cancelled moments ago starts out stopped. */
  begin(runId: string): ActiveAttempt {
    const attempt = new ActiveAttempt(runId, (a) => this.forget(a));
    let attempts = this.byRun.get(runId);
    if (!attempts) this.byRun.set(runId, (attempts = new Set()));
    attempts.add(attempt);
    if (this.cancelledRuns.has(runId)) attempt.stop('cancelled');
    return attempt;
  }

  cancelRun(runId: string): void {
    this.forgetOldCancellations();
    this.cancelledRuns.set(runId, this.now() + REMEMBER_CANCELLED_MS);
    for (const attempt of this.byRun.get(runId) ?? []) attempt.stop('cancelled');
  }

  stopAll(reason: StopReason): void {
    for (const attempts of this.byRun.values()) for (const attempt of attempts) attempt.stop(reason);
  }

  get size(): number {
    let n = 0;
    for (const attempts of this.byRun.values()) n += attempts.size;
    return n;
  }

  private forget(attempt: ActiveAttempt): void {
    const attempts = this.byRun.get(attempt.runId);
    attempts?.delete(attempt);
    if (attempts?.size === 0) this.byRun.delete(attempt.runId);
  }

  private forgetOldCancellations(): void {
    const now = this.now();
    for (const [runId, until] of this.cancelledRuns) if (until <= now) this.cancelledRuns.delete(runId);
  }
}
