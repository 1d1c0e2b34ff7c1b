export * from './at-rest-cipher';
export * from './secrets-key';
export * from './sealed-reply';
