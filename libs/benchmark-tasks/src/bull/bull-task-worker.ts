import type { StreamPublisher } from '@cinetrace/bus';
import { TASK_QUEUE, TaskFinishedEvent, TaskJob, TaskStartedEvent, TaskTopics, taskEventRecord } from '@cinetrace/contracts';
import { Logger } from '@nestjs/common';
import { DelayedError, Job, Queue, Worker } from 'bullmq';
import IORedis from 'ioredis';
import { ATTEMPTS_USED_UP, finishedEvent, nextAttempt, startedEvent, TaskAttemptError, type TaskProcessor } from '../processor';
import { ActiveAttempt, ActiveAttempts, StopReason } from './active-attempts';
import { CancelSubscriber } from './cancel-subscriber';
import { settlesWithin, withDeadline } from './deadline';
import { closeRedis } from './close-redis';
import { describeError, RedisOutageLog, TaskQueueLogger } from './redis-outage-log';
import { RedisTarget, redisUrlOf, withRedisTls } from './redis-target';
import { oneWritePerTurn } from './one-write-per-turn';
import { RunStaging } from './run-staging';
import { taskCancelChannel } from './task-cancel-channel';

/** What the worker needs of the processor (tests hand in a fake). */
export type TaskAttemptRunner = Pick<TaskProcessor, 'attempt'> & Partial<Pick<TaskProcessor, 'recordGivenUp'>>;

export interface BullTaskWorkerDeps {
  /** Redis of the task queue: every connection of the worker (BullMQ, staging, cancellations) uses it. */
  redis: RedisTarget;
  processor: TaskAttemptRunner;
  /** Where task events go (benchmark-service consumes them). */
  events: StreamPublisher;
  /** Jobs run at once by this worker. */
  concurrency: number;
  /** BullMQ key prefix; the same as the queue's. */
  prefix?: string;
  /** Lifetime of a job's lock without renewal: a dead worker's job is taken over about this long after it died. */
  lockDurationMs?: number;
  /** Between checks for jobs whose worker died; defaults to the lock duration. */
  stalledIntervalMs?: number;
  /** Times a job may be taken over from a dead worker; once more and the task fails. */
  maxStalledCount?: number;
  /** How long close() waits for running attempts before handing their jobs back to the queue (default 8 s). */
  shutdownGraceMs?: number;
  /** First delay before a job whose event could not be published runs again; doubled each time, up to 30 s. */
  republishDelayMs?: number;
  /** How long start() waits for Redis. */
  startTimeoutMs?: number;
  /** How long an attempt runs before its `started` event is published (default STARTED_AFTER_MS; 0: at once). */
  startedAfterMs?: number;
  logger?: TaskQueueLogger;
}

const MAX_REPUBLISH_DELAY_MS = 30_000;
/**
 * An attempt that ends sooner reports only its `finished` event, which carries its start
 * time: the service then stores one event per task, not two. A watcher sees such a task go
 * from pending to its end; one that runs longer shows as running from then on.
 */
const STARTED_AFTER_MS = 100;
const DEFAULT_LOCK_MS = 10_000;
/** Tries at starting a run's next staged task before the run goes on a slot short (see startNextOf). */
const NEXT_TASK_TRIES = 3;
/** After the grace period, how long attempts get to notice their abort signal before close() stops waiting. */
const HANDOVER_MS = 2_000;
/** How an attempt ended for good: the task's `finished` event and, when it completed, its trace becoming durable. */
interface AttemptEnd {
  finished: TaskFinishedEvent;
  recorded?: Promise<void>;
}

/** BullMQ's own verdict on a job that stalled too often (it never runs our processor for it). */
const STALLED_TOO_OFTEN = 'the worker running this task stopped before it finished, too many times';

/**
 * benchmark-worker's side of the task queue. Each job is one attempt of a task: it
 * runs the processor (publishing `started` if it takes a while), and publishes `finished` when the task is
 * done (completed, or failed for good); a failure that deserves another attempt is
 * thrown so that BullMQ retries it with backoff. An event that cannot be published puts
 * the job back (without using up an attempt), so Kafka being down loses nothing.
 */
export class BullTaskWorker {
  private readonly logger: TaskQueueLogger;
  private readonly active = new ActiveAttempts();
  private readonly outage: RedisOutageLog;
  private worker?: Worker<TaskJob>;
  private staging?: { redis: IORedis; queue: Queue<TaskJob>; runs: RunStaging };
  private subscriber?: CancelSubscriber;
  private closing?: Promise<void>;

  constructor(private readonly deps: BullTaskWorkerDeps) {
    this.logger = deps.logger ?? new Logger(BullTaskWorker.name);
    this.outage = new RedisOutageLog(this.logger, 'Task worker');
  }

  /** Subscribes to cancellations, then starts taking jobs; fails if Redis does not answer in time. */
  async start(): Promise<void> {
    const { deps } = this;
    const timeoutMs = deps.startTimeoutMs ?? 10_000;
    const lockDuration = deps.lockDurationMs ?? DEFAULT_LOCK_MS;
    try {
      this.subscriber = new CancelSubscriber(deps.redis, taskCancelChannel(deps.prefix), (runId) => this.active.cancelRun(runId), this.outage);
      await this.subscriber.start(timeoutMs);
      const stagingRedis = oneWritePerTurn(new IORedis(redisUrlOf(deps.redis), withRedisTls(deps.redis, { maxRetriesPerRequest: 1, connectTimeout: 3000 })));
      stagingRedis.on('error', (err) => this.onWorkerError(err));
      const stagingQueue = new Queue<TaskJob>(TASK_QUEUE, { connection: stagingRedis, prefix: deps.prefix });
      stagingQueue.on('error', (err) => this.onWorkerError(err));
      this.staging = { redis: stagingRedis, queue: stagingQueue, runs: new RunStaging(stagingRedis, stagingQueue) };
      const worker = new Worker<TaskJob>(TASK_QUEUE, (job, token) => this.runJob(job, token), {
        connection: withRedisTls(deps.redis, { url: redisUrlOf(deps.redis), connectTimeout: 3000 }),
        prefix: deps.prefix,
        concurrency: deps.concurrency,
        lockDuration,
        stalledInterval: deps.stalledIntervalMs ?? lockDuration,
        maxStalledCount: deps.maxStalledCount ?? 2,
        autorun: false,
      });
      this.worker = worker;
      worker.on('error', (err) => this.onWorkerError(err));
      worker.on('failed', (job, err) => this.onGivenUp(job, err));
      await withDeadline(worker.waitUntilReady(), timeoutMs, () => new Error(`Redis did not answer within ${timeoutMs} ms`));
      // The connection that ends jobs and extends their locks (the blocking one only waits).
      // BullMQ hands it out behind an adapter that forwards every property to the ioredis client.
      oneWritePerTurn((await worker.client) as unknown as IORedis);
      worker.run().catch((err) => this.logger.error(`The task worker stopped: ${describeError(err)}`));
      this.logger.log(`Taking benchmark tasks, ${deps.concurrency} at a time`);
    } catch (err) {
      await this.close(true);
      throw err;
    }
  }

  /** For readiness: taking jobs, and Redis answers a ping within a second (on the cancel subscriber's connection). */
  /**
   * The queue's jobs by state and the workers connected to it, for the metrics (a few Redis
   * commands per scrape). Tasks still staged for their run's window are not jobs yet.
   */
  async queueCounts(): Promise<{ jobs: { waiting: number; active: number; delayed: number }; workers: number }> {
    const queue = this.staging?.queue;
    if (!queue) throw new Error('the worker has not started');
    const [counts, workers] = await Promise.all([queue.getJobCounts('waiting', 'active', 'delayed'), queue.getWorkersCount()]);
    return { jobs: { waiting: counts.waiting ?? 0, active: counts.active ?? 0, delayed: counts.delayed ?? 0 }, workers };
  }

  async isReachable(): Promise<boolean> {
    const { worker, subscriber } = this;
    if (!worker || !subscriber || this.closing) return false;
    try {
      await withDeadline(subscriber.ping(), 1000, () => new Error('ping timed out'));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Stops taking jobs and waits for the running ones, up to the grace period; those still
   * running then are stopped and their jobs handed back to the queue for another worker.
   * With `force`, stops at once and leaves running jobs to the other workers' stalled
   * checks (as if this process had died).
   */
  close(force = false): Promise<void> {
    this.closing ??= this.shutDown(force);
    return this.closing;
  }

  private async shutDown(force: boolean): Promise<void> {
    const worker = this.worker;
    if (force) {
      // Connections first, so that nothing of what the attempts do next can reach Redis.
      await worker?.close(true).catch(() => undefined);
      this.active.stopAll('abandoned');
    } else if (worker) {
      const closed = worker.close();
      const graceMs = this.deps.shutdownGraceMs ?? 6_000;
      if (!(await settlesWithin(closed, graceMs))) {
        this.logger.warn(`${this.active.size} task(s) still running after ${graceMs} ms; handing them back to the queue`);
        this.active.stopAll('handover');
        if (!(await settlesWithin(closed, HANDOVER_MS))) {
          this.logger.warn('Some tasks did not stop; other workers take them over once their locks expire');
        }
      }
    }
    await this.subscriber?.close();
    await this.staging?.queue.close().catch(() => undefined);
    if (this.staging) await closeRedis(this.staging.redis);
  }

  /** One attempt of one task (BullMQ's processor). */
  private async runJob(job: Job<TaskJob>, token?: string): Promise<void> {
    const task = job.data;
    // Attempts whose worker died (the job stalled) count as well as those that failed.
    const attemptNumber = nextAttempt(task, job.attemptsMade + (job.stalledCounter ?? 0));
    const attempt = this.active.begin(task.runId);
    try {
      if (!attempt.stopReason && attemptNumber > task.maxAttempts) {
        const now = Date.now();
        await this.deps.processor.recordGivenUp?.(task, attemptNumber - 1, ATTEMPTS_USED_UP);
        await this.report(finishedEvent(task, attemptNumber - 1, { error: ATTEMPTS_USED_UP, startedAt: job.processedOn ?? now, finishedAt: now }), job, token);
        await this.startNextOf(task.runId);
        return;
      }
      if (!attempt.stopReason) {
        const announcing = this.announceLater(startedEvent(task, attemptNumber, Date.now()));
        const ended = await this.attempt(task, attemptNumber, attempt).finally(() => clearTimeout(announcing));
        if (ended && !(await this.stillHolds(job, token))) {
          // Its lock expired (the process stalled past WORKER_LOCK_MS) and another worker took
          // the task over: that worker's attempt is the one recorded, not this one.
          this.logger.warn(`Task ${task.taskId}: another worker took it over while attempt ${attemptNumber} ran here; this attempt's result is dropped`);
          throw new Error('the lock of this job passed to another worker');
        }
        // An attempt that got to its end just as the shutdown grace ran out still counts.
        if (ended && (!attempt.stopReason || attempt.stopReason === 'handover')) {
          await this.report(ended.finished, job, token, ended.recorded);
          await this.startNextOf(task.runId);
          return;
        }
      }
      await this.afterStop(attempt.stopReason ?? 'abandoned', job, token);
    } finally {
      attempt.end();
    }
  }

  /**
   * The `finished` event of the task (with its trace on the way, when it completed), or
   * nothing when the attempt was stopped; throws when another attempt is due.
   */
  private async attempt(task: TaskJob, attemptNumber: number, attempt: ActiveAttempt): Promise<AttemptEnd | undefined> {
    const startedAt = Date.now();
    try {
      const outcome = await this.deps.processor.attempt(task, attemptNumber, attempt.signal);
      return { finished: finishedEvent(task, attemptNumber, { outcome }), recorded: outcome.recorded };
    } catch (err) {
      if (attempt.stopReason) return undefined;
      const retryable = err instanceof TaskAttemptError ? err.retryable : true;
      if (!(err instanceof TaskAttemptError)) {
        this.logger.error(`Task ${task.taskId} attempt ${attemptNumber} failed unexpectedly: ${describeError(err)}`);
      }
      if (retryable && attemptNumber < task.maxAttempts) {
        this.logger.warn(`Task ${task.taskId} attempt ${attemptNumber} of ${task.maxAttempts} failed; retrying: ${describeError(err)}`);
        throw err;
      }
      // Internal failures are not the user's to read; TaskAttemptError messages are written for them.
      const error = err instanceof TaskAttemptError ? err.message : 'the attempt failed unexpectedly';
      return { finished: finishedEvent(task, attemptNumber, { error, startedAt, finishedAt: Date.now() }) };
    }
  }

  /**
   * Whether this worker still holds the job's lock (renewing it); a Redis error is no proof of
   * the contrary. BullMQ sets the lock after stamping the job's `processedOn`, and another
   * worker takes a job over only once its lock expired: an attempt that ended within half the
   * lock's duration still holds it, and spares Redis a command (most attempts of a run).
   */
  private async stillHolds(job: Job<TaskJob>, token?: string): Promise<boolean> {
    if (!token) return true;
    const lockMs = this.deps.lockDurationMs ?? DEFAULT_LOCK_MS;
    if (job.processedOn !== undefined && Date.now() - job.processedOn < lockMs / 2) return true;
    try {
      return (await job.extendLock(token, lockMs)) === 1;
    } catch {
      return true;
    }
  }

  /** A stopped attempt publishes nothing: a cancelled run's tasks are already marked by the service. */
  private async afterStop(reason: StopReason, job: Job<TaskJob>, token?: string): Promise<void> {
    if (reason === 'cancelled') {
      this.logger.log(`Task ${job.data.taskId} stopped: its run was cancelled`);
      return;
    }
    if (reason === 'handover') {
      // Back to the queue at once, without using up an attempt: another worker runs it.
      await job.moveToDelayed(Date.now(), token);
      throw new DelayedError();
    }
    // Abandoned: leave the job exactly as a dead process would (never completed, failed or
    // moved): its lock expires and another worker's stalled check hands it on.
    await new Promise<never>(() => undefined);
  }

  /**
   * Publishes `started` once the attempt has run `startedAfterMs`, unless it ended before (the
   * caller clears the timer). The event only tells watchers the task is running: `finished`
   * carries the start time and the attempt count anyway, and BullMQ counts the attempts of a
   * job whose worker died, so a quick attempt needs none.
   */
  private announceLater(event: TaskStartedEvent): NodeJS.Timeout | undefined {
    const afterMs = this.deps.startedAfterMs ?? STARTED_AFTER_MS;
    if (afterMs <= 0) {
      this.announce(event);
      return undefined;
    }
    return setTimeout(() => this.announce(event), afterMs);
  }

  /** Publishes `started` without holding up the attempt; one lost is logged, not retried. */
  private announce(event: TaskStartedEvent): void {
    this.deps.events
      .publish(TaskTopics.TaskEvents, [taskEventRecord(event)])
      .catch((err) => this.logger.warn(`The started event of task ${event.taskId} could not be published: ${describeError(err)}`));
  }

  /**
   * Publishes the task's `finished` event (while its trace, already on its way, becomes
   * durable); if either fails, puts the job back to run again later, its attempt unspent.
   */
  private async report(event: TaskFinishedEvent, job: Job<TaskJob>, token?: string, recorded?: Promise<void>): Promise<void> {
    try {
      await Promise.all([this.deps.events.publish(TaskTopics.TaskEvents, [taskEventRecord(event)]), recorded]);
    } catch (err) {
      const delayMs = this.republishDelay(job);
      this.logger.warn(`The end of task ${event.taskId} (its event or trace) could not be published (${describeError(err)}); the task runs again in ${delayMs} ms`);
      await job.moveToDelayed(Date.now() + delayMs, token);
      throw new DelayedError();
    }
  }

  /**
   * The task ended for good: the run's next staged task takes its slot, at once and
   * without benchmark-service. A slot not given back leaves the run one short; a run left
   * with none running is given its slots back by benchmark-service's sweep.
   */
  private async startNextOf(runId: string): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        await this.staging?.runs.next(runId);
        return;
      } catch (err) {
        if (tries >= NEXT_TASK_TRIES) {
          this.logger.warn(`The next task of run ${runId} could not be started (${describeError(err)}); the run goes on one slot short`);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 200 * tries));
      }
    }
  }

  /** Exponential in the times this job was started without an attempt being counted (each one a failed publish or a takeover). */
  private republishDelay(job: Job<TaskJob>): number {
    const base = this.deps.republishDelayMs ?? 1000;
    const postponed = Math.max(0, (job.attemptsStarted ?? 0) - job.attemptsMade - 1);
    return Math.min(base * 2 ** Math.min(postponed, 16), MAX_REPUBLISH_DELAY_MS);
  }

  /**
   * BullMQ fails a job that stalled more than `maxStalledCount` times without running our
   * processor: tell the service, or the task would stay `running` for ever.
   */
  private onGivenUp(job: Job<TaskJob> | undefined, err: Error): void {
    if (!job?.deferredFailure || err?.name !== 'UnrecoverableError') return;
    const task = job.data;
    this.logger.warn(`Task ${task.taskId} failed: ${err.message}`);
    const now = Date.now();
    const event = finishedEvent(task, Math.max(1, job.attemptsMade), {
      error: STALLED_TOO_OFTEN,
      startedAt: job.processedOn ?? now,
      finishedAt: now,
    });
    this.deps.events
      .publish(TaskTopics.TaskEvents, [taskEventRecord(event)])
      .catch((publishErr) => this.logger.error(`The failure of task ${task.taskId} could not be published: ${describeError(publishErr)}`));
    void this.startNextOf(task.runId);
  }

  private onWorkerError(err: Error): void {
    if (isConnectionError(err)) this.outage.error(err);
    else this.logger.warn(`Task worker: ${describeError(err)}`);
  }
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  const message = (err as Error)?.message ?? '';
  return typeof code === 'string' ? /^E[A-Z]+/.test(code) : /connect|connection|ECONN/i.test(message);
}
