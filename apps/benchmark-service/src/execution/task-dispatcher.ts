import { inTransaction } from '@cinetrace/persistence';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { lockRunFills } from '../store/row-locks';
import { activeRunIds, findActiveRuns, findRun, markHandedOverThrough, resetRunWindow } from '../store/runs.queries';
import { countOpenHandedOver, findOpenHandedOver, nextTasksToHandOver, requeueOpenTasks, uncountAttempt } from '../store/tasks.queries';
import { toTaskJob } from './task-jobs';
import { TaskQueue } from './task-queue';

/** How often active runs are looked over, for hand-overs that failed (the queue was down) or were lost with its data. */
const SWEEP_INTERVAL_MS = 2000;

/**
 * Hands a run's tasks to the executors a window at a time: never more than the run's
 * `concurrency` running, whatever the number of workers. Each ended task makes room for
 * the next (a queue that stages holds some more and starts them itself). The database
 * says what was handed over, so after a restart the window is rebuilt from it (and, when
 * the queue is not durable, what was in flight is handed over again).
 */
@Injectable()
export class TaskDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(TaskDispatcher.name);
  private readonly filling = new Map<string, Promise<void>>();
  private readonly waitingFills = new Map<string, Promise<void>>();
  /** Per active run, what the last sweep found: tasks lost, and whether the run was stalled. */
  private readonly lastSweep = new Map<string, { lost: Set<string>; stalled: boolean }>();
  private sweeper?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly queue: TaskQueue,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.queue.durable) await this.reclaimInFlight();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
    void this.sweep();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.sweeper);
    // Fills under way (task events do not wait for them) finish before the store and the queue close.
    await Promise.allSettled([...this.filling.values()]);
    await this.queue.close();
    await this.handBackStoppedAttempts();
  }

  /**
   * A shutdown stopped these attempts (all-in-one): they do not count towards maxAttempts,
   * so the task's count goes back to what it was before each began. Should the store be
   * gone already, they count: a task then runs fewer times, never more.
   */
  private async handBackStoppedAttempts(): Promise<void> {
    for (const { taskId, attempt } of this.queue.attemptsStoppedByClose()) {
      try {
        await uncountAttempt(this.dataSource.manager, taskId, attempt);
      } catch (err) {
        this.logger.warn(`Task ${taskId}: the attempt stopped by the shutdown counts (${(err as Error).message})`);
      }
    }
  }

  /**
   * Fills the run's window; calls for one run take turns, so two cannot overfill it. A call
   * made while another waits its turn joins that one, which will see the same room.
   */
  fill(runId: string): Promise<void> {
    const waiting = this.waitingFills.get(runId);
    if (waiting) return waiting;
    const fill = this.inTurn(runId, () => {
      this.waitingFills.delete(runId);
      return this.fillNow(runId);
    });
    this.waitingFills.set(runId, fill);
    return fill;
  }

  /**
   * Tasks of the run ended: fills its window when that makes room worth a fill. Without
   * staging every end is a free slot, filled at once. With staging the workers start the
   * staged tasks themselves, so the window is topped up once half a task per slot is missing
   * from the stage, rather than after every batch of events: a fill (a transaction of six
   * statements and a hand-over) is then paid once per `concurrency / 2` tasks, while reading
   * the stage's length costs one Redis round; the rest of the stage covers the fill's own
   * delay. The stage itself is read, not this replica's count of ends: a run's events spread
   * over replicas.
   */
  async tasksEnded(runId: string, concurrency: number): Promise<void> {
    const perSlot = this.queue.stagedPerSlot;
    if (perSlot > 0 && (await this.queue.stagedCount(runId)) > concurrency * perSlot - Math.ceil(concurrency / 2)) return;
    return this.fill(runId);
  }

  /** Work on one run's window, after the work on it already under way. */
  private inTurn(runId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.filling.get(runId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(work);
    this.filling.set(runId, next);
    void next
      .finally(() => {
        if (this.filling.get(runId) === next) this.filling.delete(runId);
      })
      .catch(() => undefined);
    return next;
  }

  private fillNow(runId: string): Promise<void> {
    return inTransaction(this.dataSource, async (tx) => {
      await lockRunFills(tx, runId);
      const run = await findRun(tx, runId);
      if (!run || run.activeBenchmarkId === null) return;
      const { concurrency } = run.runner;
      const inFlight = await countOpenHandedOver(tx, run);
      // A queue that stages holds tasks behind the running ones and starts them itself: it runs at most `concurrency` at once.
      const room = concurrency * (1 + this.queue.stagedPerSlot) - inFlight;
      if (room <= 0) return;
      const next = await nextTasksToHandOver(tx, run, room);
      if (next.length === 0) return;
      // Hand over first: a task marked handed over but never handed over would hold its slot forever,
      // while one handed over twice is a no-op (the job id is the task id).
      await this.queue.handOver(
        runId,
        concurrency,
        next.map((task) => toTaskJob(run, task)),
      );
      await markHandedOverThrough(tx, runId, next[next.length - 1].itemIndex);
    });
  }

  /** Looks over the active runs: recovers what the queue lost, refills their windows (every SWEEP_INTERVAL_MS). */
  async sweep(): Promise<void> {
    try {
      const active = await activeRunIds(this.dataSource.manager);
      for (const runId of this.lastSweep.keys()) if (!active.includes(runId)) this.lastSweep.delete(runId);
      await Promise.all(active.map((runId) => (this.queue.durable ? this.inTurn(runId, () => this.recoverLost(runId).then(() => this.fillNow(runId))) : this.fill(runId))));
    } catch (err) {
      this.logger.warn(`Looking over active runs failed: ${(err as Error).message}`);
    }
  }

  /**
   * A durable queue can still lose tasks (Redis restarted without persistence, a worker
   * died between taking a staged task and adding its job): tasks handed over that it no
   * longer holds are handed over again, or they would hold their slots forever; a run
   * whose slots were not given back as its jobs ended (a worker lost Redis just then) gets
   * them back. Each only once seen by two sweeps in a row: a worker may be adding the job
   * of a task it just took.
   */
  private async recoverLost(runId: string): Promise<void> {
    const run = await findRun(this.dataSource.manager, runId);
    if (!run || run.activeBenchmarkId === null) return;
    const handedOver = await findOpenHandedOver(this.dataSource.manager, run);
    const ids = handedOver.map((task) => task.id);
    const now = await this.queue.survey(runId, ids);
    const lostNow = new Set(now.lost);
    const stalledNow = lostNow.size === 0 && now.stalled;
    const seenBefore = this.lastSweep.get(runId);
    this.lastSweep.set(runId, { lost: lostNow, stalled: stalledNow });
    const suspects = handedOver.filter((task) => lostNow.has(task.id) && seenBefore?.lost.has(task.id));
    const stallSuspected = stalledNow && seenBefore?.stalled === true;
    if (suspects.length === 0 && !stallSuspected) return;
    // Other replicas sweep too: what was seen is checked again under the run's fill lock, so
    // that one replica acts on it (two would hand a lost task's slot back twice).
    await inTransaction(this.dataSource, async (tx) => {
      await lockRunFills(tx, runId);
      const still = await this.queue.survey(runId, ids);
      const lost = suspects.filter((task) => still.lost.includes(task.id));
      if (lost.length > 0) {
        this.logger.warn(`Run ${runId}: ${lost.length} task(s) handed over are no longer in the queue; handing them over again`);
        await this.queue.recover(
          runId,
          run.runner.concurrency,
          lost.map((task) => toTaskJob(run, task)),
        );
      } else if (stallSuspected && still.stalled) {
        this.logger.warn(`Run ${runId}: tasks wait in the queue with none of the run's running; giving the run its slots back`);
        await this.queue.restart(runId, run.runner.concurrency);
      }
    });
  }

  /**
   * After a restart with an in-process queue, what was handed over died with the process:
   * those tasks wait again (keeping their attempts), and the run's counters are recounted.
   */
  private async reclaimInFlight(): Promise<void> {
    await inTransaction(this.dataSource, async (tx) => {
      const active = await findActiveRuns(tx);
      for (const run of active) await resetRunWindow(tx, run.id, await requeueOpenTasks(tx, run.id));
      if (active.length) this.logger.log(`Resuming ${active.length} run(s) left unfinished by the last shutdown`);
    });
  }
}
