import type { TaskJob } from '@cinetrace/contracts';
import { BullTaskQueue } from '@cinetrace/benchmark-tasks';
import { TaskQueue } from './task-queue';

/** The distributed queue: BullMQ in Redis, drained by benchmark-worker processes; survives restarts. */
export class BullMqTaskQueue extends TaskQueue {
  readonly durable = true;
  private readonly queue: BullTaskQueue;

  constructor(redisUrl: string, prefix: string) {
    super();
    this.queue = new BullTaskQueue(redisUrl, { prefix });
  }

  enqueue(jobs: TaskJob[]): Promise<void> {
    return this.queue.enqueue(jobs);
  }

  cancel(runId: string, taskIds: string[]): Promise<void> {
    return this.queue.cancel(runId, taskIds);
  }

  lost(taskIds: string[]): Promise<string[]> {
    return this.queue.missing(taskIds);
  }

  isReachable(): Promise<boolean> {
    return this.queue.isReachable();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
