import type { TaskJob } from '@cinetrace/contracts';
import type { JobsOptions, Queue } from 'bullmq';
import type IORedis from 'ioredis';

/** Finished jobs are kept this long, so a task enqueued again within it (a service restart) is not run twice. */
const KEEP_FINISHED_SECONDS = 3600;
/** A run's staging keys outlive its last change by this much (a cancelled run's are dropped at once). */
const STAGING_TTL_SECONDS = 24 * 3600;

/** The scripts below, as commands defined on the client. */
interface StagingScripts {
  cinetraceStageRun(...keysThenArgs: Array<string | number>): Promise<string[]>;
  cinetraceNextOfRun(...keysThenArgs: Array<string | number>): Promise<string | null>;
}

/** How a staged task is kept: the job and the backoff its queue gives retries. */
interface StagedEntry {
  job: TaskJob;
  backoffMs: number;
}

/** One job per task (job id = task id), retried with exponential backoff up to the task's attempts. */
export function taskJobOptions(job: TaskJob, backoffMs: number): JobsOptions {
  return {
    jobId: job.taskId,
    attempts: Math.max(1, job.maxAttempts),
    backoff: { type: 'exponential', delay: backoffMs },
    removeOnComplete: { age: KEEP_FINISHED_SECONDS },
    removeOnFail: { age: KEEP_FINISHED_SECONDS },
  };
}

/**
 * Pops staged entries while the run has free slots, skipping tasks that already have a
 * job (staged twice, or recovered meanwhile): those hold a slot of their own or are done.
 * KEYS: staged list, free slots. ARGV: job key prefix, concurrency, ttl, 'stage' |
 * 'restage' | 'reset', entries... A restage puts back tasks lost between pop and add, each
 * of which took a slot with it: the slots come back too (unless the counter itself was
 * lost). A reset gives the run all its slots back (none of its jobs is running).
 */
const STAGE_SCRIPT = `
local free = tonumber(redis.call('GET', KEYS[2]))
local restage = ARGV[4] == 'restage'
if not free or ARGV[4] == 'reset' then free = tonumber(ARGV[2])
elseif restage then free = free + (#ARGV - 4) end
if restage then
  for i = #ARGV, 5, -1 do redis.call('LPUSH', KEYS[1], ARGV[i]) end
else
  for i = 5, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
end
local taken = {}
while free > 0 do
  local entry = redis.call('LPOP', KEYS[1])
  if not entry then break end
  if redis.call('EXISTS', ARGV[1] .. cjson.decode(entry).job.taskId) == 0 then
    taken[#taken + 1] = entry
    free = free - 1
  end
end
redis.call('SET', KEYS[2], free, 'EX', ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return taken
`;

/**
 * A job of the run ended for good: the next staged entry takes its slot, or the slot
 * becomes free. Nothing for a run without staging keys (cancelled, or not staged).
 * KEYS: staged list, free slots. ARGV: job key prefix, ttl.
 */
const NEXT_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 0 then return false end
while true do
  local entry = redis.call('LPOP', KEYS[1])
  if not entry then
    redis.call('INCR', KEYS[2])
    redis.call('EXPIRE', KEYS[2], ARGV[2])
    return false
  end
  if redis.call('EXISTS', ARGV[1] .. cjson.decode(entry).job.taskId) == 0 then return entry end
end
`;

/**
 * A run's tasks staged in Redis behind its window: at most `concurrency` of them are jobs
 * at any time, and the worker that ends one starts the next itself, so a slot is refilled
 * within a Redis round instead of waiting for the task's event to reach benchmark-service
 * and its database. benchmark-service keeps staging ahead (what it has handed over is in
 * its database) and, from that, recovers a task lost between pop and add.
 */
export class RunStaging {
  private readonly jobKeyPrefix: string;
  private readonly scripts: StagingScripts;

  constructor(
    private readonly redis: IORedis,
    private readonly queue: Queue<TaskJob>,
  ) {
    this.jobKeyPrefix = queue.toKey('');
    // Defined commands go by EVALSHA (the script text is sent once, on a NOSCRIPT answer), where EVAL sends and hashes it on every call.
    redis.defineCommand('cinetraceStageRun', { numberOfKeys: 2, lua: STAGE_SCRIPT });
    redis.defineCommand('cinetraceNextOfRun', { numberOfKeys: 2, lua: NEXT_SCRIPT });
    this.scripts = redis as unknown as StagingScripts;
  }

  /** Appends the run's next tasks behind those staged and starts as many as it has free slots. */
  async stage(runId: string, concurrency: number, jobs: TaskJob[], backoffMs: number): Promise<void> {
    await this.addTaken(await this.runStageScript(runId, concurrency, 'stage', jobs, backoffMs));
  }

  /** Puts tasks lost between pop and add back at the head of the run's stage, with the slots they took. */
  async restage(runId: string, concurrency: number, jobs: TaskJob[], backoffMs: number): Promise<void> {
    await this.addTaken(await this.runStageScript(runId, concurrency, 'restage', jobs, backoffMs));
  }

  /** Gives the run all its slots back and starts its staged tasks in them: for a run none of whose jobs is unfinished. */
  async reset(runId: string, concurrency: number): Promise<void> {
    await this.addTaken(await this.runStageScript(runId, concurrency, 'reset', [], 0));
  }

  /** A job of the run ended for good: starts the next staged task in its slot. */
  async next(runId: string): Promise<void> {
    const [staged, free] = this.keys(runId);
    const entry = await this.scripts.cinetraceNextOfRun(staged, free, this.jobKeyPrefix, STAGING_TTL_SECONDS);
    if (entry) await this.addTaken([entry]);
  }

  /** How many of the run's tasks wait in its stage. */
  stagedCount(runId: string): Promise<number> {
    return this.redis.llen(this.keys(runId)[0]);
  }

  /** Ids of the run's tasks waiting in its stage. */
  async stagedTaskIds(runId: string): Promise<string[]> {
    const entries = await this.redis.lrange(this.keys(runId)[0], 0, -1);
    return entries.map((entry) => (JSON.parse(entry) as StagedEntry).job.taskId);
  }

  /** Forgets the run's stage (it was cancelled): nothing of it starts any more. */
  async drop(runId: string): Promise<void> {
    await this.redis.del(...this.keys(runId));
  }

  private runStageScript(runId: string, concurrency: number, mode: 'stage' | 'restage' | 'reset', jobs: TaskJob[], backoffMs: number) {
    const entries = jobs.map((job) => JSON.stringify({ job, backoffMs } satisfies StagedEntry));
    const [staged, free] = this.keys(runId);
    return this.scripts.cinetraceStageRun(staged, free, this.jobKeyPrefix, concurrency, STAGING_TTL_SECONDS, mode, ...entries);
  }

  private async addTaken(entries: string[]): Promise<void> {
    if (entries.length === 0) return;
    const parsed = entries.map((entry) => JSON.parse(entry) as StagedEntry);
    if (parsed.length === 1) {
      // One job (what a worker adds as one ends) without addBulk's MULTI: ioredis builds each pipeline with every script of the client, which costs more than the add.
      const [{ job, backoffMs }] = parsed;
      await this.queue.add('task', job, taskJobOptions(job, backoffMs));
      return;
    }
    await this.queue.addBulk(parsed.map(({ job, backoffMs }) => ({ name: 'task', data: job, opts: taskJobOptions(job, backoffMs) })));
  }

  private keys(runId: string): [staged: string, free: string] {
    return [`${this.jobKeyPrefix}staged:${runId}`, `${this.jobKeyPrefix}free:${runId}`];
  }
}
