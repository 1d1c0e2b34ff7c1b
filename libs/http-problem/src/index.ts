export * from './status-for-code';
export * from './problem-details';
export * from './problem-details.filter';
export * from './method-not-allowed';
export * from './send-problem';
