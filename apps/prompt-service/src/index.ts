export * from './prompt-service.env';
export * from './prompt-service.module';
export * from './start-prompt-service';
