export * from './trace.schema';
export * from './times';
export * from './validate-trace';
export * from './stored-trace';
export * from './merge-trace';
export * from './span-timeline';
export * from './json-values';
export * from './trace-limits';
