import { DomainError, ErrorCode } from '@cinetrace/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyIntake } from '../http/body-intake';

/** The body types an upload takes: any video, image or audio type (`video/mp4`, `image/png`, `audio/mpeg` …). */
export const MEDIA_BODY_TYPE = /^(video|image|audio)\/[a-z0-9]/i;

/** The route that takes media bodies. */
export const MEDIA_UPLOAD_ROUTE = '/api/v1/media';

const isMediaUpload = (request: FastifyRequest) => request.routeOptions?.url === MEDIA_UPLOAD_ROUTE && request.method === 'POST';

/**
 * Media bodies reach the upload route unread, as the request stream: the route streams them
 * into the blob store, which counts them against MEDIA_MAX_BYTES (not MAX_BODY_BYTES, which
 * bounds what is held in memory). Any other route refuses them (415), as it refuses every
 * type but JSON.
 */
export function registerMediaBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(MEDIA_BODY_TYPE, (request, payload, done) => {
    if (!isMediaUpload(request)) {
      done(new DomainError(ErrorCode.UnsupportedMediaType, 'Send the body as application/json'), undefined);
      return;
    }
    done(null, payload);
  });
}

/** What the media upload takes beside JSON `{ url }`: the bytes themselves, unread. */
export const MEDIA_BODY_INTAKE: BodyIntake = { register: (fastify) => registerMediaBodyParser(fastify) };
