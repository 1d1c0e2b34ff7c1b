export * from './stream.types';
export * from './in-process.streams';
export * from './kafka-stream.publisher';
export * from './lag-gate';
export * from './kafka-stream.consumer';
export * from './stream-subscription';
