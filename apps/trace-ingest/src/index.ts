export * from './trace-ingest.env';
export * from './trace-ingest.module';
export * from './start-trace-ingest';
