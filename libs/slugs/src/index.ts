export * from './slugs';
