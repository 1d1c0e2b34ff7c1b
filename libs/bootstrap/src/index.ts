export * from './start-microservice';
export * from './run-service-process';
export * from './bus-service-process';
