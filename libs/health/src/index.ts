export * from './readiness';
export * from './health-server';
export * from './graceful-shutdown';
