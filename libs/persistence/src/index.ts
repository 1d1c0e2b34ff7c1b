export * from './ids';
export * from './database-target';
export * from './data-source.factory';
export * from './dialect-sql';
export * from './column-transformers';
export * from './store-errors';
export * from './persistence.module';
export * from './transactions';
