import { jest } from '@jest/globals';

// A unit test's time limit. Jest reads `testTimeout` from its global configuration only, never a
// project's, so each project sets its own here. Many specs start ffmpeg, S3Mock or a PostgreSQL
// database, and CI runs them beside the build and ESLint: jest's 5 s is too tight there.
jest.setTimeout(20_000);
