export * from './media-service.env';
export * from './media-service.module';
export * from './start-media-service';
export * from './media/media-jobs';
