import { CreateMedia1764400000000 } from './1764400000000-CreateMedia';
import { CreateMediaCopies1764700000000 } from './1764700000000-CreateMediaCopies';

/** In order of their timestamps. */
export const mediaServiceMigrations = [CreateMedia1764400000000, CreateMediaCopies1764700000000];
