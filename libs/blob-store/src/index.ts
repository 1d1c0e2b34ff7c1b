export * from './blob-store';
export * from './blob-meter';
export * from './fs-blob-store';
export * from './s3-blob-store';
export * from './blob-store-from-env';
export * from './blob-file';
