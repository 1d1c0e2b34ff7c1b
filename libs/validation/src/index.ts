export * from './field-errors';
export * from './validation.pipe';
