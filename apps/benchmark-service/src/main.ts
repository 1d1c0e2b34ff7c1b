/**
 * benchmark-service: Datasets, benchmarks, runs and tasks; enqueues work and owns progress.
 * Not built yet (issue #5); this entry point keeps the architecture's layout whole.
 */
console.error('benchmark-service is not implemented yet (issue #5)');
process.exit(1);
