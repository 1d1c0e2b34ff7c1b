import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { excessiveNestingError } from '@cinetrace/validation';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import type { OwnJsonReader } from './body-intake';
import { bodyLimitOf, readRawBody } from './raw-body';
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
 * A route whose domain reads its JSON itself (`ownJson`: OTLP/JSON may come gzipped) gets
 * what the domain read.
 */
export function registerJsonBodyParser(
  fastify: FastifyInstance,
  { maxDepth, maxBodyBytes }: { maxDepth: number; maxBodyBytes: number },
  ownJson: readonly OwnJsonReader[] = [],
): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', (request, payload, done) => {
    readRawBody(request, payload, bodyLimitOf(request, maxBodyBytes)).then(
      (body) => parseBody(request, body, done),
      (err: Error) => done(err, undefined),
    );
  });
  const parseBody = (request: FastifyRequest, body: Buffer, done: (err: Error | null, value: unknown) => void): void => {
    for (const read of ownJson) {
      const reading = read(request, body as Buffer);
      if (reading === undefined) continue;
      reading.then(
        (value) => done(null, value),
        (err: Error) => done(err, undefined),
      );
      return;
    }
    let text: string;
    try {
      text = utf8Text(body as Buffer);
    } catch (err) {
      done(err as Error, undefined);
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
    try {
      done(null, parseJsonText(text, maxDepth));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
}

/**
 * A JSON document's text as a value, under the gateway's JSON rules (depth checked before
 * parsing, prototype-reaching keys refused); throws the DomainError the client is told.
 */
export function parseJsonText(text: string, maxDepth: number): unknown {
  const tooDeep = excessiveNestingError(text, maxDepth);
  if (tooDeep) throw DomainError.validation([tooDeep]);
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (err) {
    const poisoned = /forbidden (prototype|constructor) property/.test((err as Error).message);
    if (!poisoned) throw new DomainError(ErrorCode.InvalidJson, 'The body is not valid JSON');
    const path = prototypeKeyPath(JSON.parse(text)) ?? '__proto__';
    throw DomainError.validation([{ path, message: 'is a key that could reach a prototype (__proto__, constructor.prototype)' }]);
  }
}

/** Strict UTF-8 text of a body, or the InvalidJson DomainError. */
export function utf8Text(body: Buffer): string {
  try {
    return UTF8.decode(body);
  } catch {
    throw new DomainError(ErrorCode.InvalidJson, 'The body is not valid UTF-8 (JSON is sent as UTF-8)');
  }
}
