import type { TaskJob } from '@cinetrace/contracts';

/**
 * Where benchmark-service hands tasks to be executed: BullMQ (distributed, executed by
 * benchmark-worker) or an in-process runner (all-in-one). Results come back as task
 * events on a stream either way. Enqueueing a task already enqueued is a no-op.
 */
export abstract class TaskQueue {
  /** Whether enqueued tasks survive a restart of this process (BullMQ: yes; in-process: no). */
  abstract readonly durable: boolean;
  abstract enqueue(jobs: TaskJob[]): Promise<void>;
  /** Stops the named tasks of a run: those waiting are dropped, those running are aborted. */
  abstract cancel(runId: string, taskIds: string[]): Promise<void>;
  /** Of the named tasks handed over, those the queue no longer holds (its store lost them). */
  abstract lost(taskIds: string[]): Promise<string[]>;
  abstract isReachable(): Promise<boolean>;
  abstract close(): Promise<void>;
}
