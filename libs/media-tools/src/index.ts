export * from './media-tool-paths';
export * from './run-media-tool';
export * from './filter-check';
export * from './report-media-tools';
export * from './probe-media';
export * from './extract-frame';
export * from './scene-cuts';
export * from './media-unreadable-error';
