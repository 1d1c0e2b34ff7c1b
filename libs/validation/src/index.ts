export * from './field-errors';
export * from './validation.pipe';
export * from './check-input';
export * from './json-nesting';
