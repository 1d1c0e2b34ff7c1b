export * from './fetch-media';
export * from './media-types';
