import type { TaskJob } from '@cinetrace/contracts';
import { BullTaskQueue, RedisTarget } from '@cinetrace/benchmark-tasks';
import { QueueSurvey, TaskQueue } from './task-queue';

/**
 * Staged tasks per slot of a run's window: enough that a run never waits for its next
 * tasks to come from here (the events that make room arrive through Kafka and the
 * database, ~100 ms late), few enough that cancelling drops a small stage.
 */
const STAGED_PER_SLOT = 4;

/**
 * The distributed queue: BullMQ in Redis, drained by benchmark-worker processes; survives
 * restarts. A run's next tasks wait staged in Redis; the worker that ends one of the run's
 * jobs starts the next itself.
 */
export class BullMqTaskQueue extends TaskQueue {
  readonly durable = true;
  override readonly stagedPerSlot = STAGED_PER_SLOT;
  private readonly queue: BullTaskQueue;

  constructor(redis: RedisTarget, prefix: string) {
    super();
    this.queue = new BullTaskQueue(redis, { prefix });
  }

  enqueue(jobs: TaskJob[]): Promise<void> {
    return this.queue.enqueue(jobs);
  }

  override handOver(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    return this.queue.stage(runId, concurrency, jobs);
  }

  override recover(runId: string, concurrency: number, jobs: TaskJob[]): Promise<void> {
    return this.queue.restage(runId, concurrency, jobs);
  }

  override stagedCount(runId: string): Promise<number> {
    return this.queue.stagedCount(runId);
  }

  cancel(runId: string, taskIds: string[]): Promise<void> {
    return this.queue.cancel(runId, taskIds);
  }

  /**
   * Lost: handed over, yet neither a job nor staged (lost with Redis's data, or taken from
   * the stage by a worker that died before adding it). Stalled: tasks staged, and none of
   * the others a job that has not finished. The stage is read once for both.
   */
  async survey(runId: string, taskIds: string[]): Promise<QueueSurvey> {
    const staged = new Set(await this.queue.stagedTaskIds(runId));
    const notStaged = taskIds.filter((taskId) => !staged.has(taskId));
    const lost = await this.queue.missing(notStaged);
    const stalled = staged.size > 0 && (await this.queue.unfinished(notStaged)) === 0;
    return { lost, stalled };
  }

  override restart(runId: string, concurrency: number): Promise<void> {
    return this.queue.restart(runId, concurrency);
  }

  isReachable(): Promise<boolean> {
    return this.queue.isReachable();
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}
