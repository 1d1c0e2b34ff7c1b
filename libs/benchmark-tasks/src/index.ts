export * from './processor';
export * from './bull';
