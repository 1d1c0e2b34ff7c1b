import { jest } from '@jest/globals';

// An e2e test's time limit (see unit-timeout.ts): a test drives a stack of processes, on a
// machine that runs two other e2e suites beside it in CI.
jest.setTimeout(120_000);
