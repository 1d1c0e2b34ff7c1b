export * from './address-policy';
export * from './url-policy';
export * from './outbound-error';
export * from './public-lookup';
export * from './outbound-client';
