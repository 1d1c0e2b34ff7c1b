import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { excessiveNestingError } from '@cinetrace/validation';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { prototypeKeyPath } from './prototype-key-path';

/** Decodes UTF-8 strictly: a byte sequence that is not UTF-8 throws instead of turning into U+FFFD. A leading BOM is dropped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies parsed by the gateway itself, so a malformed body is `invalid_json` (Nest
 * would re-wrap Fastify's own error and lose its code). The bytes are read as they came
 * (Fastify's string mode decodes them leniently and then counts characters against
 * Content-Length, so a body that is not UTF-8 looked like a size mismatch), must be UTF-8,
 * and must not nest deeper than `maxDepth`, checked on the text before JSON.parse spends
 * time on it. `__proto__` keys, and a `constructor` holding a `prototype`, are refused, as
 * Fastify's default parser does: the two shapes through which a naive merge of the body
 * would reach an object's prototype. Any other key, `constructor` included, is data.
 */
export function registerJsonBodyParser(fastify: FastifyInstance, { maxDepth }: { maxDepth: number }): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = UTF8.decode(body as Buffer);
    } catch {
      done(new DomainError(ErrorCode.InvalidJson, 'The body is not valid UTF-8 (JSON is sent as UTF-8)'), undefined);
      return;
    }
    // Clients often label a body-less DELETE as JSON; only routes that take a body need one.
    if (text.trim() === '' && request.method === 'DELETE') {
      done(null, undefined);
      return;
    }
    if (text.trim() === '') {
      done(new DomainError(ErrorCode.InvalidJson, 'The body is empty; send a JSON document'), undefined);
      return;
    }
    const tooDeep = excessiveNestingError(text, maxDepth);
    if (tooDeep) {
      done(DomainError.validation([tooDeep]), undefined);
      return;
    }
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (err) {
      const poisoned = /forbidden (prototype|constructor) property/.test((err as Error).message);
      if (!poisoned) {
        done(new DomainError(ErrorCode.InvalidJson, 'The body is not valid JSON'), undefined);
        return;
      }
      const path = prototypeKeyPath(JSON.parse(text)) ?? '__proto__';
      done(DomainError.validation([{ path, message: 'is a key that could reach a prototype (__proto__, constructor.prototype)' }]), undefined);
    }
  });
}

