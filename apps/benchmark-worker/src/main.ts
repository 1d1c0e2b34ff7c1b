/**
 * benchmark-worker: BullMQ workers: call the target, run the scorers, report progress.
 * Not built yet (issue #5); this entry point keeps the architecture's layout whole.
 */
console.error('benchmark-worker is not implemented yet (issue #5)');
process.exit(1);
