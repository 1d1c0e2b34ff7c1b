import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LocalScorerSpec } from './local-scorers';
import type { ScoringReply, ScoringRequest } from './scoring-thread';

/** As scoring-thread's THREAD_READY (not imported: that module is the thread's entry point). */
const THREAD_READY = 'ready';
import { LocalScoring, ScoreInput, ScoreOutcome, ScorerSpec } from './scorer.types';
import { ScorerError } from './scorer-error';
import { EVALUATION_TIME_LIMIT_MS } from './time-limit';

export interface ScoringThreadsOptions {
  /** Threads at most (made when first needed): evaluations beyond wait their turn. */
  size?: number;
  /** Budget of one evaluation; a thread still busy a moment after it is terminated. */
  timeLimitMs?: number;
  /** The thread's script: the compiled scoring-thread.js beside this file unless told. */
  threadFile?: string;
}

export const DEFAULT_SCORING_THREADS = 2;
/** How long past its budget an evaluation may take to stop by itself before its thread is terminated. */
const HARD_STOP_GRACE_MS = 250;

interface Job {
  request: ScoringRequest;
  /** A ScoreOutcome for an evaluation, the problem (or null) for a schema. */
  resolve(result: unknown): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  /** Its modules are loaded: a slow start (a busy machine) is not charged to an evaluation. */
  ready: boolean;
  job?: Job;
  timer?: NodeJS.Timeout;
}

/**
 * Runs the local scorers whose cost a user controls (regex, json_schema,
 * string_similarity) on worker threads, so that no pattern, schema or text can hold the
 * event loop that answers /healthz and every other tenant. Each evaluation has a hard time
 * limit: a thread that overruns it is terminated and replaced.
 */
export class ScoringThreads implements LocalScoring {
  private readonly size: number;
  private readonly timeLimitMs: number;
  private readonly threadFile: string;
  private readonly threads = new Set<Thread>();
  private readonly waiting: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(options: ScoringThreadsOptions = {}) {
    this.size = Math.max(1, options.size ?? DEFAULT_SCORING_THREADS);
    this.timeLimitMs = options.timeLimitMs ?? EVALUATION_TIME_LIMIT_MS;
    this.threadFile = options.threadFile ?? join(__dirname, 'scoring-thread.js');
  }

  score(spec: ScorerSpec, input: ScoreInput): Promise<ScoreOutcome> {
    return this.ask<ScoreOutcome>({ id: this.nextId++, spec: spec as LocalScorerSpec, input, timeLimitMs: this.timeLimitMs });
  }

  /**
   * Why a benchmark's JSON Schema cannot be used, or null: compiled on a thread, under the
   * time limit (past it: a ScorerError), since ajv compiles a schema to code on the spot.
   */
  schemaProblem(schema: object): Promise<string | null> {
    return this.ask<string | null>({ id: this.nextId++, schema, timeLimitMs: this.timeLimitMs });
  }

  private ask<T>(request: ScoringRequest): Promise<T> {
    if (this.closed) return Promise.reject(new ScorerError('the scoring threads are shut down'));
    return new Promise<T>((resolve, reject) => {
      this.waiting.push({ request, resolve: resolve as (result: unknown) => void, reject });
      this.dispatch();
    });
  }

  /** Terminates the threads; evaluations not finished fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.waiting.splice(0)) job.reject(new ScorerError('the scoring threads are shut down'));
    await Promise.all([...this.threads].map((thread) => this.retire(thread, new ScorerError('the scoring threads are shut down'))));
  }

  private dispatch(): void {
    while (this.waiting.length > 0) {
      const thread = this.idleThread();
      if (!thread) {
        if (this.threads.size < this.size) this.startThread();
        return;
      }
      this.run(thread, this.waiting.shift()!);
    }
  }

  private idleThread(): Thread | undefined {
    for (const thread of this.threads) if (thread.ready && !thread.job) return thread;
    return undefined;
  }

  /** One more thread; it takes work once it says it is ready. */
  private startThread(): void {
    if ([...this.threads].some((thread) => !thread.ready)) return; // one start at a time
    const worker = new Worker(this.threadFile);
    // The threads never keep the process alive: an evaluation waited for holds its own timer.
    worker.unref();
    const thread: Thread = { worker, ready: false };
    worker.on('message', (reply: ScoringReply | typeof THREAD_READY) => {
      if (reply !== THREAD_READY) return this.settle(thread, reply);
      thread.ready = true;
      this.dispatch();
    });
    worker.on('error', (err) => void this.retire(thread, new Error(`the scoring thread failed: ${err.message}`)));
    worker.on('exit', () => void this.retire(thread, new Error('the scoring thread stopped')));
    this.threads.add(thread);
  }

  private run(thread: Thread, job: Job): void {
    thread.job = job;
    try {
      thread.worker.postMessage(job.request);
    } catch (err) {
      // A value that cannot be copied to the thread (too deep, say): this evaluation fails, the thread is fine.
      thread.job = undefined;
      job.reject(new ScorerError(`the output could not be handed to the scorer: ${(err as Error).message}`));
      return;
    }
    thread.timer = setTimeout(() => void this.retire(thread, new ScorerError(`took longer than ${this.timeLimitMs} ms and was stopped`)), this.timeLimitMs + HARD_STOP_GRACE_MS);
  }

  private settle(thread: Thread, reply: ScoringReply): void {
    const job = thread.job;
    if (!job || job.request.id !== reply.id) return;
    clearTimeout(thread.timer);
    thread.job = undefined;
    if ('outcome' in reply) job.resolve(reply.outcome);
    else if ('problem' in reply) job.resolve(reply.problem);
    else job.reject(reply.ours ? new ScorerError(reply.error) : new Error(reply.error));
    this.dispatch();
  }

  /** Takes a thread out of the pool (terminating it if it still runs), failing its evaluation with `error`. */
  private async retire(thread: Thread, error: Error): Promise<void> {
    if (!this.threads.delete(thread)) return;
    clearTimeout(thread.timer);
    thread.job?.reject(error);
    thread.job = undefined;
    // A thread that could not even start: those waiting would wait for ever; the next evaluation tries again.
    if (!thread.ready) for (const job of this.waiting.splice(0)) job.reject(error);
    if (!this.closed) this.dispatch();
    await thread.worker.terminate().catch(() => undefined);
  }
}
