import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GatewayEnv } from '../gateway.env';
import type { OtlpBody } from './otlp-body';
import { decodeOtlpExport, type OtlpDecoded, type OtlpExport } from './otlp-decoding';

/**
 * Exports up to this size (decompressed) are decoded on the event loop: about 5 ms at most
 * (0.15 ms per 8 KB measured). Handing a small export to a thread cost more than decoding
 * it: the all-in-one service took 1,120-1,160 10-span exports a second decoding them on the
 * loop, 890-980 through a thread (p99 60-90 ms against 160-270 ms), on two cores.
 */
export const ON_LOOP_MAX_BYTES = 256 * 1024;
/**
 * Large exports waiting for a thread, per thread, before one more is answered 503 (the
 * exporter retries). Each holds its body (up to MAX_BODY_BYTES) while it waits, and at
 * ~100 ms per 5 MiB export, 16 is more than a second of work queued.
 */
const QUEUED_PER_THREAD = 16;
/** A thread idle this long ends: only exports past ON_LOOP_MAX_BYTES use them. */
const THREAD_IDLE_MS = 60_000;
const RETRY_AFTER_SECONDS = 1;

/** Decodes OTLP export requests: what OtlpIngest needs done before it publishes. */
export interface OtlpDecoder {
  decode(body: OtlpBody): Promise<OtlpDecoded>;
}

/**
 * OTLP decoding, mapping and validation: on worker threads (OTLP_DECODE_THREADS) for a large
 * export, which on the loop held every other request for its whole decode (a 5 MiB export,
 * about 100 ms), on the loop for the small ones (ON_LOOP_MAX_BYTES). Both run decodeOtlpExport.
 */
@Injectable()
export class OtlpDecodePool implements OtlpDecoder, OnApplicationShutdown {
  private readonly pool: Piscina<OtlpExport, OtlpDecoded>;

  constructor(private readonly env: GatewayEnv) {
    const threads = env.OTLP_DECODE_THREADS;
    this.pool = new Piscina({
      filename: join(__dirname, 'otlp-decode.worker.js'),
      // Started at the first large export, not at boot: most deployments never send one, and
      // each thread holds its own copy of the schemas and protos in memory.
      minThreads: 0,
      maxThreads: threads,
      maxQueue: threads * QUEUED_PER_THREAD,
      idleTimeout: THREAD_IDLE_MS,
    });
  }

  async decode(body: OtlpBody): Promise<OtlpDecoded> {
    if (body.bytes.length <= ON_LOOP_MAX_BYTES) return decodeOtlpExport({ ...body, maxJsonDepth: this.env.MAX_JSON_DEPTH });
    try {
      // The body is often a view of a larger socket buffer, which a post would copy whole: the
      // thread gets its own copy of just these bytes, moved rather than copied again.
      const bytes = new Uint8Array(body.bytes);
      return await this.pool.run({ encoding: body.encoding, bytes, maxJsonDepth: this.env.MAX_JSON_DEPTH }, { transferList: [bytes.buffer] });
    } catch (err) {
      // Piscina's refusal of a task past maxQueue (its errors carry no code).
      if ((err as Error)?.message === 'Task queue is at limit') {
        throw new DomainError(ErrorCode.Unavailable, 'OTLP decoding is at capacity; retry the export', undefined, RETRY_AFTER_SECONDS);
      }
      throw err;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }
}
