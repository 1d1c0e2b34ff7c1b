export * from './scorer.types';
export * from './scorer-error';
export * from './field-path';
export * from './validate-scorers';
export * from './run-scorer';
export * from './judge-score';
export * from './aggregate-scores';
export * from './render-prompt';
