export * from './logging.module';
export * from './process-name';
export * from './boot-logger';
export * from './url-credentials';
