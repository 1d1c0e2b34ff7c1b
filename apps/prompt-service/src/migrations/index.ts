import { CreatePrompts1763877600000 } from './1763877600000-CreatePrompts';

/** In order of their timestamps. */
export const promptServiceMigrations = [CreatePrompts1763877600000];
