import type { FastifyInstance } from 'fastify';
import { once } from 'node:events';

/** How much of a refused body the gateway reads and discards before answering. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;
const DRAIN_LIMIT_MS = 10_000;

/**
 * A body refused before it was read (over the limit, or of a type we do not take) is
 * read and discarded before the answer goes out, within bounds. Answering first and
 * closing the socket while the client is still writing makes many clients (fetch
 * among them) fail with EPIPE and never see the 413 or 415 (nginx's "lingering close").
 */
export function drainRejectedBodies(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    const raw = request.raw;
    if (reply.statusCode < 400 || raw.complete || raw.readableEnded || raw.destroyed) return;
    let drained = 0;
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > DRAIN_LIMIT_BYTES) raw.destroy();
    };
    raw.on('data', onData);
    raw.resume();
    const timeout = AbortSignal.timeout(DRAIN_LIMIT_MS);
    await Promise.race([once(raw, 'end', { signal: timeout }), once(raw, 'close', { signal: timeout })]).catch(() => undefined);
    raw.off('data', onData);
  });
}
