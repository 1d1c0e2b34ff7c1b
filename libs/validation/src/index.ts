export * from './field-errors';
export * from './validation.pipe';
export * from './check-input';
