export * from './benchmark-service.env';
export * from './benchmark-service.module';
export * from './start-benchmark-service';
export * from './execution/task-queue';
export * from './execution/in-process-task-queue';
