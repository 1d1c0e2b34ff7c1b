export * from './benchmark-service.env';
export * from './benchmark-service.module';
export * from './start-benchmark-service';
