import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GatewayEnv } from '../gateway.env';
import type { OtlpBody } from './otlp-body';
import type { OtlpDecoded, OtlpExport } from './otlp-decoding';

/** Exports waiting for a thread, per thread, before one more is answered 503 (the exporter retries). */
const QUEUED_PER_THREAD = 256;
const RETRY_AFTER_SECONDS = 1;

/** Decodes OTLP export requests: what OtlpIngest needs done before it publishes. */
export interface OtlpDecoder {
  decode(body: OtlpBody): Promise<OtlpDecoded>;
}

/**
 * OTLP decoding, mapping and validation on worker threads (OTLP_DECODE_THREADS). Measured:
 * they are most of an export's CPU (0.29 of 0.92 ms per 10-span trace on the event loop),
 * and on the loop a 5 MiB export held every other request for its whole decode.
 */
@Injectable()
export class OtlpDecodePool implements OtlpDecoder, OnApplicationShutdown {
  private readonly pool: Piscina<OtlpExport, OtlpDecoded>;

  constructor(private readonly env: GatewayEnv) {
    const threads = env.OTLP_DECODE_THREADS;
    this.pool = new Piscina({
      filename: join(__dirname, 'otlp-decode.worker.js'),
      minThreads: threads,
      maxThreads: threads,
      maxQueue: threads * QUEUED_PER_THREAD,
      // Threads stay up: starting one (schemas compiled, protos loaded) costs more than many exports.
      idleTimeout: Infinity,
    });
  }

  async decode(body: OtlpBody): Promise<OtlpDecoded> {
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
