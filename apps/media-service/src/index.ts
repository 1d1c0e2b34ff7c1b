export * from './media-service.env';
export * from './media-service.module';
export * from './start-media-service';
export * from './media/probe-queue';
export * from './media/in-process-probe-queue';
