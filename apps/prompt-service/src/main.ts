/**
 * prompt-service: Prompts: versioned documents with stable identifiers, labels and an activity trail.
 * Not built yet (issue #3); this entry point keeps the architecture's layout whole.
 */
console.error('prompt-service is not implemented yet (issue #3)');
process.exit(1);
