import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import { headerRef } from '../openapi/response-headers';

/** The media types of stored bytes: any video, image or audio type (a media type range, as OpenAPI allows). */
export const MEDIA_RANGES = ['video/*', 'image/*', 'audio/*'] as const;

const bytesOf = (range: string) => ({ schema: { type: 'string', contentMediaType: range } as never });
const mediaContent = () => Object.fromEntries(MEDIA_RANGES.map((range) => [range, bytesOf(range)]));

/**
 * What the media routes take and answer beyond JSON (media.controller.ts): an upload's body
 * is the bytes themselves, beside JSON `{ url }`; the content route answers the bytes, whole
 * (200) or one range (206), with their stored type.
 */
export function describeMediaOperations(doc: OpenAPIObject): void {
  const create = doc.paths['/api/v1/media']?.post;
  const body = create?.requestBody;
  if (body && !('$ref' in body)) {
    body.required = true;
    body.description = 'The bytes, streamed (up to MEDIA_MAX_BYTES, else 413), with their Content-Type; or JSON { url } to fetch a copy under the outbound rules';
    body.content = { ...mediaContent(), ...body.content };
  }
  const content = doc.paths['/api/v1/media/{id}/content']?.get;
  if (!content) return;
  const answer = (description: string, extra: ResponseObject['headers']): ResponseObject => ({
    description,
    headers: { 'Accept-Ranges': headerRef('Accept-Ranges'), 'Content-Length': headerRef('Content-Length'), ...extra },
    content: mediaContent(),
  });
  content.responses['200'] = answer('The whole content, with its stored type', {});
  content.responses['206'] = answer('The range asked for', { 'Content-Range': headerRef('Content-Range') });
}
