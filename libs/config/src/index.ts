export * from './validate-env';
export * from './env-types';
export * from './run-mode';
export * from './store-and-bus.env';
export * from './stream-consumer.env';
