import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * A domain's part in what bodies the gateway takes (JSON alone otherwise): the content types
 * its routes take, and the JSON bodies its routes read themselves. Each domain declares its
 * own and the gateway's start hands them to the adapter, so http/ names no domain.
 */
export interface BodyIntake {
  /** Adds the domain's content type parsers, each refusing its types (415) on any other route. */
  register(fastify: FastifyInstance, limits: { maxBodyBytes: number }): void;
  /** The body of a JSON request to one of the domain's routes, read its own way; undefined for any other request. */
  readJson?(request: FastifyRequest, body: Buffer, limits: { maxBodyBytes: number }): Promise<unknown> | undefined;
}

/** A JSON body read by the route's domain, or undefined when no domain claims the request. */
export type OwnJsonReader = (request: FastifyRequest, body: Buffer) => Promise<unknown> | undefined;
