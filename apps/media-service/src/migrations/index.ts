import { CreateMedia1764400000000 } from './1764400000000-CreateMedia';
import { CreateMediaAnnotations1764610000000 } from './1764610000000-CreateMediaAnnotations';
import { AddMediaStoryboard1764610000001 } from './1764610000001-AddMediaStoryboard';

/** In order of their timestamps. */
export const mediaServiceMigrations = [CreateMedia1764400000000, CreateMediaAnnotations1764610000000, AddMediaStoryboard1764610000001];
