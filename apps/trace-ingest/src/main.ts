/**
 * trace-ingest: Traces: consumes trace events in batches, stores and serves them.
 * Not built yet (issue #4); this entry point keeps the architecture's layout whole.
 */
console.error('trace-ingest is not implemented yet (issue #4)');
process.exit(1);
