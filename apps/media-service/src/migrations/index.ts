import { CreateMedia1764400000000 } from './1764400000000-CreateMedia';

/** In order of their timestamps. */
export const mediaServiceMigrations = [CreateMedia1764400000000];
