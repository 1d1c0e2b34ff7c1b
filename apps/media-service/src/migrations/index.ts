import { CreateMedia1764400000000 } from './1764400000000-CreateMedia';
import { CreateMediaAnnotations1764610000000 } from './1764610000000-CreateMediaAnnotations';
import { AddMediaStoryboard1764610000001 } from './1764610000001-AddMediaStoryboard';
import { CreateMediaCopies1764700000000 } from './1764700000000-CreateMediaCopies';

/** In order of their timestamps. */
export const mediaServiceMigrations = [CreateMedia1764400000000, CreateMediaAnnotations1764610000000, AddMediaStoryboard1764610000001, CreateMediaCopies1764700000000];
