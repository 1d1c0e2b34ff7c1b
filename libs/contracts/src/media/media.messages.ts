import type { ProjectContext } from '../context';
import type { PageRequest } from '../lists/page';
import type { MediaStatus } from './media.views';

/** A blob the gateway stored (libs/blob-store), for media-service to name in a row. Bytes never travel on the bus. */
export interface MediaRegisterRequest {
  ctx: ProjectContext;
  key: string;
  sha256: string;
  bytes: number;
  contentType: string;
  sourceUrl: string | null;
}

export interface MediaListFilters {
  contentType?: string;
  status?: MediaStatus;
}

/** Media page by id, newest first. */
export type MediaListKey = string;

export interface MediaListRequest {
  ctx: ProjectContext;
  filters: MediaListFilters;
  page: PageRequest<MediaListKey>;
}

export interface MediaRequest {
  ctx: ProjectContext;
  id: string;
}
