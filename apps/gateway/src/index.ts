export * from './gateway.env';
export * from './gateway.module';
export * from './start-gateway';
