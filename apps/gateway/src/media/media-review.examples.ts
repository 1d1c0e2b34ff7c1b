import type { CreateMediaAnnotationInput, MediaAnnotationView, MediaStoryboardView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';
import { frameUrl } from './media-review.controller';

const annotation = {
  id: 'man_01jh8z7c2d4f6g8h0j2k4m6n8p',
  mediaId: EXAMPLE.mediaId,
  startMs: 1200,
  endMs: 1800,
  label: 'flicker',
  score: 0.25,
  comment: 'The sky flickers as the camera pans',
  createdAt: EXAMPLE.createdAt,
} satisfies MediaAnnotationView;

export const MEDIA_REVIEW_EXAMPLES: ExampleTable = {
  getMediaStoryboard: {
    response: { data: [0, 3000, 6000, 16_000].map((atMs) => ({ atMs, frameUrl: frameUrl(EXAMPLE.mediaId, atMs) })) } satisfies MediaStoryboardView,
  },
  createMediaAnnotation: {
    request: { startMs: 1200, endMs: 1800, label: 'flicker', score: 0.25, comment: 'The sky flickers as the camera pans' } satisfies CreateMediaAnnotationInput,
    response: annotation,
  },
  listMediaAnnotations: {
    response: listPage([annotation, { ...annotation, id: 'man_01jh8z7d3e5g7h9j1k3m5n7p9q', startMs: 4000, endMs: 4000, label: 'good', score: null, comment: null }]),
  },
};
