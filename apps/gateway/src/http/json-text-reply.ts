import { JsonText } from '@cinetrace/bus';
import type { FastifyInstance } from 'fastify';

/**
 * Fastify's serializer, except that a reply a service already wrote as JSON (JsonText, see
 * @cinetrace/bus) is sent as that text: a 100-span trace is not parsed and serialized again
 * on its way through the gateway. Fastify still sets `application/json; charset=utf-8`,
 * since the payload is an object.
 */
export function sendJsonTextAsIs(fastify: FastifyInstance): void {
  fastify.setReplySerializer((payload) => (payload instanceof JsonText ? (payload.json as string) : JSON.stringify(payload)));
}
