export * from './project-service.env';
export * from './project-service.module';
export * from './start-project-service';
