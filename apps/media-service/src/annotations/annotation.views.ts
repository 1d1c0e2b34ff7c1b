import type { MediaAnnotationView } from '@cinetrace/contracts';
import { toIso } from '@cinetrace/persistence';
import type { MediaAnnotation } from '../store/media-annotation.entity';

export const toMediaAnnotationView = (a: MediaAnnotation): MediaAnnotationView => ({
  id: a.id,
  mediaId: a.mediaId,
  startMs: a.startMs,
  endMs: a.endMs,
  label: a.label,
  score: a.score,
  comment: a.comment,
  createdAt: toIso(a.createdAt),
});
