export * from './otlp-conventions';
export * from './otlp-values';
export * from './otlp-codec';
export * from './otlp-to-traces';
export { PAYLOAD_SOURCES, hasVideoOutput, movedNote, payloadSource } from './otlp-span-semantics';
export * from './otlp-span-checks';
export * from './otlp-payload-copies';
export * from './otlp-export-record';
export { OTLP_TRACE_DESCRIPTOR } from './otlp-descriptor';
