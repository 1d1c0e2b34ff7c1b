import { errorCodes, type FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';

/**
 * A request body's bytes, read as Fastify's `parseAs: 'buffer'` reads them (the same limit,
 * the same errors) but without the copy at the end: when Content-Length says the size, the
 * bytes go chunk by chunk into one buffer of exactly that size. Joining the chunks of a
 * large body at its end held the event loop for one long copy (about 5 ms for 3 MiB, page
 * faults included), which every other request waited behind; copied as they arrive, each
 * chunk costs a few microseconds. The buffer owns its memory whole (Buffer.allocUnsafeSlow,
 * never a slice of a shared pool), so it can be moved to a worker thread without a copy
 * (ownsItsMemory, owned-bytes.ts), or comes from `allocate` (a BodyMemoryPool's). A body without
 * Content-Length (chunked) is joined at its end as before.
 */
export function readRawBody(request: FastifyRequest, payload: Readable, limit: number, allocate: (length: number) => Buffer = Buffer.allocUnsafeSlow): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    const sized = Number.isSafeInteger(declared) && declared >= 0;
    if (sized && declared > limit) {
      payload.resume(); // Drained, so the connection can carry the answer.
      reject(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    const whole = sized ? allocate(declared) : undefined;
    const chunks: Buffer[] = [];
    let received = 0;

    const finish = (err?: Error) => {
      payload.removeListener('data', onData);
      payload.removeListener('end', onEnd);
      payload.removeListener('error', onError);
      // A stream keeps an error listener for its whole life: an error after the answer must not end the process.
      payload.on('error', ignore);
      if (err) reject(err);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > (whole ? whole.length : limit)) {
        finish(whole ? new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH() : new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
        payload.resume();
        return;
      }
      if (whole) chunk.copy(whole, received);
      else chunks.push(chunk);
      received += chunk.length;
    };
    const onEnd = () => {
      if (whole && received !== whole.length) {
        finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
        return;
      }
      finish();
      resolve(whole ?? Buffer.concat(chunks, received));
    };
    const onError = (err: Error & { statusCode?: number }) => {
      // As Fastify's reader: a stream error (the client went away) is the client's, 400.
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      finish(err);
    };
    payload.on('data', onData);
    payload.on('end', onEnd);
    payload.on('error', onError);
    payload.resume();
  });
}

/** The limit Fastify applies to this request's body: the route's own, or the server's. */
export function bodyLimitOf(request: FastifyRequest, fallback: number): number {
  return request.routeOptions?.bodyLimit ?? fallback;
}

const ignore = () => undefined;
