export * from './bull-task-queue';
export * from './bull-task-worker';
export { taskCancelChannel } from './task-cancel-channel';
export type { TaskQueueLogger } from './redis-outage-log';
export * from './redis-target';
