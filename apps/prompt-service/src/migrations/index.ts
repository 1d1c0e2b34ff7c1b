import { CreatePrompts1763877600000 } from './1763877600000-CreatePrompts';
import { CreatePromptReleases1764300000000 } from './1764300000000-CreatePromptReleases';
import { IndexPromptIdentifiers1766100000000 } from './1766100000000-IndexPromptIdentifiers';
import { RecordEvaluations1766200000000 } from './1766200000000-RecordEvaluations';

/** In order of their timestamps. */
export const promptServiceMigrations = [CreatePrompts1763877600000, CreatePromptReleases1764300000000, IndexPromptIdentifiers1766100000000, RecordEvaluations1766200000000];
