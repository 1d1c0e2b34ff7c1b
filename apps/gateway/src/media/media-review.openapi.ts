import type { OpenAPIObject } from '@nestjs/swagger';
import { headerRef } from '../openapi/response-headers';

/**
 * The frame route answers a JPEG, not JSON (media-review.controller.ts): its 200 is described
 * here, with the headers it carries (Cache-Control: the frame of content-addressed bytes
 * never changes).
 */
export function describeMediaFrameOperations(doc: OpenAPIObject): void {
  const frame = doc.paths['/api/v1/media/{id}/frames']?.get;
  if (!frame) return;
  frame.responses['200'] = {
    description: 'The frame, a JPEG at most 1280 pixels wide',
    headers: {
      'Content-Length': headerRef('Content-Length'),
      'Cache-Control': { description: '`private, max-age=31536000, immutable`: the frame never changes', required: true, schema: { type: 'string' } },
    },
    content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } as never } },
  };
}
