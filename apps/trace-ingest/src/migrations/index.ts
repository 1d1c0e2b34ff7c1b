import { CreateTraces1763881200000 } from './1763881200000-CreateTraces';

/** In order of their timestamps. */
export const traceIngestMigrations = [CreateTraces1763881200000];
