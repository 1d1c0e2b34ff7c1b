import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { CreateMediaAnnotationInput } from './annotation.inputs';

export interface MediaAnnotationCreateRequest {
  ctx: ProjectContext;
  mediaId: string;
  input: CreateMediaAnnotationInput;
}

/** Annotations page by `[startMs, id]`, earliest first. */
export type MediaAnnotationListKey = [number, string];

export interface MediaAnnotationListRequest {
  ctx: ProjectContext;
  mediaId: string;
  page: PageRequest<MediaAnnotationListKey>;
}
