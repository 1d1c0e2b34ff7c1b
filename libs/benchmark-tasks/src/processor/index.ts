export { TaskProcessor, FAILED_TRACE_WAIT_MS, type TaskProcessorDeps, type AttemptOutcome } from './task-processor';
export { TaskAttemptError, MAX_ERROR_LENGTH } from './task-attempt-error';
export { startedEvent, finishedEvent, nextAttempt, ATTEMPTS_USED_UP } from './task-events';
export { TASK_TRACE_NAME, TASK_TRACE_TAGS } from './attempt-trace';
export { BusSecretSource, type SecretSource } from './secret-source';
export { TaskMedia, type TaskMediaDeps } from './task-media';
