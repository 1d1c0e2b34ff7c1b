export * from './logging.module';
export * from './process-name';
export * from './boot-logger';
export * from './url-credentials';
export * from './log-format';
export * from './quiet-startup';
export * from './ready-banner';
export * from './app-logger';
