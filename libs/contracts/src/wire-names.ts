/**
 * Every name that travels on the wire or lives in a broker, queue or channel: renaming one
 * strands what was sent under the old name (records, jobs, consumer offsets), so these are
 * never renamed, only added to. One file, so that rule has one place to be read.
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

/**
 * Request-reply message patterns. In the distributed mode each travels in a header of a
 * record on its service's request topic (`<service>.requests`; replies come back on the
 * caller's `<client>.reply`): never rename one, only add new ones.
 */
export const Patterns = {
  AuthResolve: 'project.auth.resolve',
  ProjectCreate: 'project.projects.create',
  ProjectList: 'project.projects.list',
  ProjectGet: 'project.projects.get',
  ApiKeyCreate: 'project.apikeys.create',
  ApiKeyList: 'project.apikeys.list',
  ApiKeyRevoke: 'project.apikeys.revoke',
  OrganizationCreate: 'project.organizations.create',
  SecretCreate: 'project.secrets.create',
  SecretList: 'project.secrets.list',
  SecretRotate: 'project.secrets.rotate',
  SecretDelete: 'project.secrets.delete',
  SecretActivity: 'project.secrets.activity',
  /** The gateway asks for the public key it seals new values to (the bus never carries one in clear). */
  SecretIntakeKey: 'project.secrets.intake-key',
  /** benchmark-service asks whether a benchmark's credential references may be used. */
  SecretUsesCheck: 'project.secrets.uses.check',
  /** The process making an outbound call asks for one value, sealed to its own key. */
  SecretResolve: 'project.secrets.resolve',
  /** benchmark-service pushes the secret names its benchmarks reference (a secret still named cannot be deleted). */
  SecretReferencesRecord: 'project.secrets.references.record',
  PromptCreate: 'prompt.prompts.create',
  PromptList: 'prompt.prompts.list',
  PromptGet: 'prompt.prompts.get',
  PromptUpdate: 'prompt.prompts.update',
  PromptDelete: 'prompt.prompts.delete',
  PromptVersions: 'prompt.prompts.versions',
  PromptActivity: 'prompt.prompts.activity',
  PromptReleases: 'prompt.releases.list',
  PromptReleaseMove: 'prompt.releases.move',
  PromptReleaseRemove: 'prompt.releases.remove',
  PromptDiff: 'prompt.prompts.diff',
  PromptRender: 'prompt.prompts.render',
  /** benchmark-service pushes its benchmarks and completed runs of prompts (what a release's gate judges by). */
  EvaluationsRecord: 'prompt.evaluations.record',
  TraceList: 'trace.traces.list',
  TraceGet: 'trace.traces.get',
  SpanParents: 'trace.spans.parents',
  IngestReceipts: 'trace.ingest.receipts',
  DatasetCreate: 'benchmark.datasets.create',
  DatasetList: 'benchmark.datasets.list',
  DatasetGet: 'benchmark.datasets.get',
  DatasetDelete: 'benchmark.datasets.delete',
  DatasetItemsAdd: 'benchmark.datasets.items.add',
  DatasetItems: 'benchmark.datasets.items',
  BenchmarkCreate: 'benchmark.benchmarks.create',
  BenchmarkList: 'benchmark.benchmarks.list',
  BenchmarkGet: 'benchmark.benchmarks.get',
  BenchmarkDelete: 'benchmark.benchmarks.delete',
  RunStart: 'benchmark.runs.start',
  RunList: 'benchmark.runs.list',
  TaskList: 'benchmark.tasks.list',
  /** benchmark-worker asks for an item's output in another run of the project (video_similarity against a run). */
  TaskOutput: 'benchmark.tasks.output',
  MediaRegister: 'media.media.register',
  MediaList: 'media.media.list',
  MediaGet: 'media.media.get',
  /** The gateway asks where a media's bytes are (its blob key), to stream them itself. */
  MediaBlob: 'media.media.blob',
  /** The gateway asks for the blob of a frame (rendered and stored at the first request), to stream it itself. */
  MediaFrame: 'media.frames.render',
  /** The storyboard's keyframes, or `pending` while its job runs (the gateway asks again). */
  MediaStoryboard: 'media.storyboard.get',
  MediaAnnotationCreate: 'media.annotations.create',
  MediaAnnotationList: 'media.annotations.list',
  /** benchmark-service asks for the annotation labels counted over the media a run's outputs name (a run summary). */
  MediaAnnotationCounts: 'media.annotations.counts',
  /** trace-ingest hands over the media references of stored outputs, to be copied. */
  MediaCopiesRequest: 'media.copies.request',
  ProjectPing: 'project.ping',
  PromptPing: 'prompt.ping',
  TracePing: 'trace.ping',
  BenchmarkPing: 'benchmark.ping',
  MediaPing: 'media.ping',
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
