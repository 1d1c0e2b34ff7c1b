export * from './optional-not-null';
export * from './json-object';
export * from './string-items';
export * from './object-items';
export * from './keep-json';
export * from './scalar-map';
