/**
 * Every name that travels on the wire or lives in a broker, queue or channel: renaming one
 * strands what was sent under the old name (records, jobs, consumer offsets), so these are
 * never renamed, only added to. One file, so that rule has one place to be read; one exception
 * under the same rule: the request-reply patterns' names, declared with their types and owners
 * in bus-patterns/.
 */

/**
 * The services, as they name their request topics (`<service>.requests`) and their request
 * consumer groups.
 */
export const ServiceNames = {
  ProjectService: 'project-service',
  PromptService: 'prompt-service',
  TraceIngest: 'trace-ingest',
  BenchmarkService: 'benchmark-service',
  MediaService: 'media-service',
} as const;

export const Topics = {
  /** Never rename: the topic holds accepted traces until trace-ingest stored them. */
  TraceIngest: 'trace.ingest',
  TraceIngestDeadLetter: 'trace.ingest.dead-letter',
} as const;

/** Consumer groups of the streams. Never rename: a new group starts from the oldest record kept. */
export const ConsumerGroups = {
  /** Stores the trace stream; the gateway holds trace POSTs back while it lags too far. */
  TraceIngest: 'trace-ingest',
  /** Reads the task-event stream into runs and tasks. */
  TaskEvents: 'benchmark-service',
} as const;

export const TaskTopics = {
  /** Task events from the executors to benchmark-service, keyed by task id (taskEventRecord). */
  TaskEvents: 'benchmark.task.events',
  TaskEventsDeadLetter: 'benchmark.task.events.dead-letter',
} as const;

/** The BullMQ queue of task jobs (distributed mode); job id = task id. */
export const TASK_QUEUE = 'benchmark-tasks';
/** Redis pub/sub channel on which benchmark-service names runs whose running tasks must stop. */
export const TASK_CANCEL_CHANNEL = 'benchmark-tasks:cancel';

/** The BullMQ queue of media probe jobs (distributed mode), drained by media-service; job id = media id. */
export const MEDIA_QUEUE = 'media-jobs';
/** The BullMQ queue of storyboard jobs (scene detection over a whole video), drained by media-service; job id = media id. */
export const STORYBOARD_QUEUE = 'media-storyboards';

/** The BullMQ queue of copy jobs of media that trace outputs name (distributed mode), drained by media-service; job id = copy id. */
export const MEDIA_COPY_QUEUE = 'media-copies';
