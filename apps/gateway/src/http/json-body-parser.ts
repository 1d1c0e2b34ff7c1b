import { DomainError, ErrorCode } from '@cinetrace/contracts';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/**
 * JSON bodies parsed by the gateway itself, so a malformed body is `invalid_json` (Nest
 * would re-wrap Fastify's own error and lose its code). `__proto__` and `constructor.prototype`
 * keys are refused, as Fastify's default parser does, so no body can reach an object's prototype.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    // Clients often label a body-less DELETE as JSON; only routes that take a body need one.
    if (text.trim() === '' && request.method === 'DELETE') {
      done(null, undefined);
      return;
    }
    if (text.trim() === '') {
      done(new DomainError(ErrorCode.InvalidJson, 'The body is empty; send a JSON document'), undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = /forbidden (prototype|constructor) property/.test((err as Error).message);
      done(
        poisoned
          ? DomainError.validation([{ path: '__proto__', message: 'prototype keys are not allowed in a body' }])
          : new DomainError(ErrorCode.InvalidJson, 'The body is not valid JSON'),
        undefined,
      );
    }
  });
}
