export * from './benchmark-worker.env';
export * from './start-benchmark-worker';
