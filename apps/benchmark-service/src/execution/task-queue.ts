import type { TaskJob } from '@cinetrace/contracts';

/** See TaskQueue.survey. */
export interface QueueSurvey {
  lost: string[];
  stalled: boolean;
}

/**
 * Where benchmark-service hands tasks to be executed: BullMQ (distributed, executed by
 * benchmark-worker) or an in-process runner (all-in-one). Results come back as task
 * events on a stream either way. Enqueueing a task already enqueued is a no-op.
 */
export abstract class TaskQueue {
  /** Whether enqueued tasks survive a restart of this process (BullMQ: yes; in-process: no). */
  abstract readonly durable: boolean;
  /**
   * Tasks of a run it holds per slot of the run's window beyond those running, starting
   * them itself as slots free up (0: it holds none, and the dispatcher refills each slot).
   */
  readonly stagedPerSlot: number = 0;
  abstract enqueue(jobs: TaskJob[]): Promise<void>;
  /** Hands over a run's next tasks; a queue that stages runs at most `concurrency` of the run's at once. */
  handOver(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    void runId;
    void concurrency;
    return this.enqueue(jobs);
  }
  /** How many of the run's tasks it holds staged (none for a queue that stages nothing). */
  async stagedCount(runId: string): Promise<number> {
    void runId;
    return 0;
  }
  /** Hands over again tasks of a run it lost (see `survey`). */
  recover(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    return this.handOver(runId, concurrency, jobs);
  }
  /** Gives a stalled run (see `survey`) its slots back. */
  async restart(runId: string, concurrency: number): Promise<void> {
    void runId;
    void concurrency;
  }
  /** Stops the named tasks of a run: those waiting are dropped, those running are aborted. */
  abstract cancel(runId: string, taskIds: string[]): Promise<void>;
  /**
   * What the queue holds of the run's named tasks handed over: `lost`, those it no longer
   * holds (its store lost them); `stalled`, whether the run waits on it for ever (tasks of
   * the run staged, yet none of the named ones running or about to: its slots were not
   * given back as jobs ended; never for a queue that stages nothing).
   */
  abstract survey(runId: string, taskIds: string[]): Promise<QueueSurvey>;
  abstract isReachable(): Promise<boolean>;
  abstract close(): Promise<void>;
  /**
   * Attempts that close() stopped, to be handed back: a shutdown is not a failure of the
   * task, so they must not count towards maxAttempts. Only a queue that runs tasks in
   * this process has any (a durable queue hands its jobs over itself).
   */
  attemptsStoppedByClose(): StoppedAttempt[] {
    return [];
  }
}

/** An attempt that began (its `started` is stored) and was stopped by a shutdown. */
export interface StoppedAttempt {
  taskId: string;
  attempt: number;
}
