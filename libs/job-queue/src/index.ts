export * from './job-queue';
export * from './in-process-job-queue';
export * from './bull-job-queue';
export * from './swept-jobs';
export * from './fair-limit';
