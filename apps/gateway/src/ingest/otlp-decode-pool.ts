import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import { GatewayEnv } from '../gateway.env';
import { FairShareLimiter, FairShareRefusal } from './fair-share-limiter';
import { ownsItsMemory } from '../http/owned-bytes';
import { OTLP_BODY_MEMORY, type OtlpBody } from './otlp-body';
import { decodeOtlpExport, type OtlpDecoded } from './otlp-decoding';
import type { OtlpThreadAnswer, OtlpThreadTask } from './otlp-decode.worker';
import { ON_LOOP_MAX_BYTES } from './otlp-gunzip';

/**
 * Large exports running or waiting for a thread, per thread, before one more is answered 503
 * (the exporter retries). Each holds its body (up to MAX_BODY_BYTES) while it waits, and 16
 * of the largest are already about a second of decoding queued.
 */
const QUEUED_PER_THREAD = 16;
/**
 * What one project may hold of that, per thread, before its next large export is answered
 * 429: a project flooding the pool is refused alone, and a quarter leaves room for others.
 */
const PROJECT_QUEUED_PER_THREAD = 4;
/** A thread idle this long ends: only exports past ON_LOOP_MAX_BYTES use them. */
const THREAD_IDLE_MS = 60_000;
const RETRY_AFTER_SECONDS = 1;

/** Decodes OTLP export requests: what OtlpIngest needs done before it publishes. */
export interface OtlpDecoder {
  /** Decodes `body`, exported to the project `projectId` (whose share of the decoding threads it takes); read `body.bytes` again once it resolves (they may travel to a thread and back). */
  decode(projectId: string, body: OtlpBody): Promise<OtlpDecoded>;
  /** Why an export of `bytes` (as its Content-Length says) to `projectId` would be refused now, before its body is read; undefined if it would not. */
  refusalBeforeReading(projectId: string, bytes: number): DomainError | undefined;
  /** Says `body` will not be read again (refused, or decoded and not published as its bytes): its memory may serve the next export. */
  release(body: OtlpBody): void;
}

/**
 * OTLP decoding, mapping and validation: on worker threads (OTLP_DECODE_THREADS) for a large
 * export, which on the loop held every other request for its whole decode (a 5 MiB export,
 * about 100 ms), on the loop for the small ones (ON_LOOP_MAX_BYTES). Both run decodeOtlpExport.
 * The threads are shared fairly between projects (FairShareLimiter): a project flooding them
 * with large exports waits behind its own, is refused past its share (429 with Retry-After),
 * and another project's export waits for one thread to free at most.
 */
@Injectable()
export class OtlpDecodePool implements OtlpDecoder, OnApplicationShutdown {
  private readonly pool: Piscina<OtlpThreadTask, OtlpThreadAnswer>;
  private readonly shares: FairShareLimiter;

  constructor(private readonly env: GatewayEnv) {
    const threads = env.OTLP_DECODE_THREADS;
    this.pool = new Piscina({
      filename: join(__dirname, 'otlp-decode.worker.js'),
      // Started at the first large export, not at boot: most deployments never send one, and
      // each thread holds its own copy of the schemas and protos in memory.
      minThreads: 0,
      maxThreads: threads,
      idleTimeout: THREAD_IDLE_MS,
    });
    // At most one export per thread is handed to piscina: the rest wait here, in their project's turn.
    this.shares = new FairShareLimiter({ concurrency: threads, perKey: threads * PROJECT_QUEUED_PER_THREAD, total: threads * QUEUED_PER_THREAD });
  }

  async decode(projectId: string, body: OtlpBody): Promise<OtlpDecoded> {
    if (!body.gzipped && body.bytes.length <= ON_LOOP_MAX_BYTES) return decodeOtlpExport({ encoding: body.encoding, bytes: body.bytes, maxJsonDepth: this.env.MAX_JSON_DEPTH });
    try {
      return await this.shares.run(projectId, () => this.onThread(body));
    } catch (err) {
      throw err instanceof FairShareRefusal ? refusalError(err) : err;
    }
  }

  /**
   * A body that large would need a thread whatever its encoding (decompressed, it is no
   * smaller): a project holding its share is refused before the gateway reads the body, so a
   * flood costs the event loop no buffering of bodies it would refuse anyway.
   */
  refusalBeforeReading(projectId: string, bytes: number): DomainError | undefined {
    if (!(bytes > ON_LOOP_MAX_BYTES)) return undefined;
    const refusal = this.shares.refusal(projectId);
    return refusal && refusalError(refusal);
  }

  release(body: OtlpBody): void {
    OTLP_BODY_MEMORY.give(body.bytes);
  }

  /**
   * The bytes are moved to the thread and back, not copied (a 3 MiB copy held the loop for
   * milliseconds): `body.bytes` is a new view of the same bytes once this resolves. A body
   * that is a view of a larger buffer (gunzipped, or from Node's pool), which a move would
   * take whole, is copied first; a body of OTLP_BODY_MEMORY's moves with its memory.
   */
  private async onThread(body: OtlpBody): Promise<OtlpDecoded> {
    const pooled = OTLP_BODY_MEMORY.handedOut(body.bytes);
    const bytes = OTLP_BODY_MEMORY.handedOut(body.bytes) || ownsItsMemory(body.bytes) ? body.bytes : new Uint8Array(body.bytes);
    const task: OtlpThreadTask = { encoding: body.encoding, bytes, maxJsonDepth: this.env.MAX_JSON_DEPTH, ...(body.gzipped ? { gunzipWithin: this.env.MAX_BODY_BYTES } : {}) };
    const { decoded, bytes: back } = await this.pool.run(task, { transferList: [bytes.buffer] });
    // Decompressed, when they came gzipped; else the same memory, the pool's again if it was.
    if (pooled && !body.gzipped) OTLP_BODY_MEMORY.adopt(back.buffer);
    body.bytes = Buffer.from(back.buffer, back.byteOffset, back.byteLength);
    delete body.gzipped;
    return decoded;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.destroy();
  }
}

/** A project past its share is told its own rate (429); everyone past the queue, the service's capacity (503). */
function refusalError(refusal: FairShareRefusal): DomainError {
  if (refusal.reason === 'key') {
    return new DomainError(ErrorCode.RateLimited, 'This project has as many large exports being decoded as it may; retry the export', undefined, RETRY_AFTER_SECONDS);
  }
  return new DomainError(ErrorCode.Unavailable, 'OTLP decoding is at capacity; retry the export', undefined, RETRY_AFTER_SECONDS);
}
