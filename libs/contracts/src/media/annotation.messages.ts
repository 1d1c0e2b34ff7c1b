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

/** A media id as media-service makes them (`med_` and a lower-case ULID): what a run's outputs are searched for. */
export const MEDIA_ID_PATTERN = /^med_[0-9a-z]{26}$/;

/** The most media one run summary counts the annotations of (their ids travel in one bus request). */
export const ANNOTATION_COUNT_MEDIA_MAX = 10_000;

/** The most labels one count answers, the most frequent first; the others are counted in `total` and `labelsOmitted`. */
export const ANNOTATION_COUNT_LABELS_MAX = 100;

/**
 * benchmark-service asks (a run's summary): the annotations on these media, counted by label.
 * Only media of the caller's project count; an id of another project's media, or of none,
 * counts nothing. At most ANNOTATION_COUNT_MEDIA_MAX ids.
 */
export interface MediaAnnotationCountsRequest {
  ctx: ProjectContext;
  mediaIds: string[];
}

export interface MediaAnnotationCountsReply {
  /** Annotations on the project's media among those asked about, all labels included. */
  total: number;
  /** By label, the ANNOTATION_COUNT_LABELS_MAX most frequent (ties by label). */
  labels: Record<string, number>;
  /** Labels beyond those. */
  labelsOmitted: number;
}
