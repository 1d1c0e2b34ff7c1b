/**
 * Benchmark tasks as they travel between benchmark-service (which owns runs and tasks)
 * and whoever executes them: a benchmark-worker over BullMQ in the distributed mode, an
 * in-process runner in the all-in-one mode. Jobs are self-contained (no call back to
 * the service is needed to run one); results come back as events on a stream.
 */

export const TASK_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** One dataset item as the run snapshotted it at start. */
export interface TaskItem {
  id: string;
  index: number;
  input: unknown;
  expected: unknown;
  metadata: Record<string, unknown>;
}

/** The prompt a target renders with each item's input, as it stood when the run started. */
export interface TaskPrompt {
  id: string;
  version: number;
  content: string;
}

/** Everything one task needs, so that a worker never has to ask the service. */
export interface TaskJob {
  taskId: string;
  runId: string;
  benchmarkId: string;
  projectId: string;
  item: TaskItem;
  /** The benchmark's target as stored (`{ type: 'dataset' | 'http' | 'openai_chat', … }`). */
  target: Record<string, unknown>;
  prompt: TaskPrompt | null;
  /** The benchmark's scorers as stored (libs/scorers ScorerSpec). */
  scorers: Array<{ name: string; type: string; config: Record<string, unknown> }>;
  /** Per attempt; the whole attempt (target call and scorers) must finish within it. */
  timeoutMs: number;
  maxAttempts: number;
  /**
   * Attempts the service had recorded as started when it handed the task over (absent: 0).
   * Counted in, so that a task whose attempts died with their process (a crash, a restart,
   * a lost job) is not run more than maxAttempts times in all.
   */
  attemptsBefore?: number;
  /** The trace the execution is recorded as (spans of every attempt land in it). */
  traceId: string;
}

export interface TaskScore {
  scorer: string;
  score: number | null;
  passed: boolean | null;
  details: unknown | null;
  error: string | null;
}

/** An attempt began (the task is `running`; `attempt` counts from 1). */
export interface TaskStartedEvent {
  kind: 'started';
  taskId: string;
  runId: string;
  projectId: string;
  attempt: number;
  at: number;
}

/** The task ended: `completed`, or `failed` after its last attempt. Applied once. */
export interface TaskFinishedEvent {
  kind: 'finished';
  taskId: string;
  runId: string;
  projectId: string;
  status: 'completed' | 'failed';
  attempts: number;
  output: unknown;
  scores: TaskScore[];
  error: string | null;
  usage: Record<string, number> | null;
  costUsd: number | null;
  traceId: string;
  startedAt: number;
  finishedAt: number;
}

export type TaskEvent = TaskStartedEvent | TaskFinishedEvent;

/**
 * A task event as a record of the task-event stream, keyed by task id: a task's events keep
 * their order, while a run's spread over every partition (a run's counters are updated
 * under a lock of its row, so no order between tasks is needed). Keyed by run id, a run
 * had one partition, hence one record batch per fetch and one benchmark-service replica.
 */
export const taskEventRecord = (event: TaskEvent): { key: string; value: TaskEvent } => ({ key: event.taskId, value: event });

/**
 * benchmark-worker's question for a video_similarity against another run: the output the item
 * `itemId` had in run `runId`, within the task's project (another project's run is `not_found`).
 */
export interface TaskOutputRequest {
  projectId: string;
  runId: string;
  itemId: string;
  /** The item's index in its dataset: with the run, the key the tasks table is indexed by. */
  itemIndex: number;
}

/** The task's status and output (null until it has one). */
export interface TaskOutputReply {
  status: string;
  output: unknown;
}
