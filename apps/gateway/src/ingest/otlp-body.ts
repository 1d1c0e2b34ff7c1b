import { DomainError, ErrorCode } from '@cinetrace/contracts';
import type { OtlpEncoding } from '@cinetrace/traces';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BodyIntake } from '../http/body-intake';
import { BodyMemoryPool } from '../http/body-memory-pool';
import { bodyLimitOf, readRawBody } from '../http/raw-body';
import { ON_LOOP_MAX_BYTES, gunzipWithin } from './otlp-gunzip';
import { isOtlpRoute } from './otlp-routes';

/** An OTLP request body as read off the wire: its bytes, decompressed, and how they are encoded. */
export interface OtlpBody {
  encoding: OtlpEncoding;
  bytes: Buffer;
  /** The bytes are still gzip: a large body, decompressed on a decoding thread (readOtlpBody). */
  gzipped?: true;
}

/**
 * The memory of protobuf exports too large to decode on the loop (they go to a decoding thread
 * and back): used again for the next once an export is refused or decoded and not kept
 * (OtlpDecoder.release). At most 32 MiB of it is kept.
 */
export const OTLP_BODY_MEMORY = new BodyMemoryPool(ON_LOOP_MAX_BYTES + 1, 32 * 1024 * 1024);

export const PROTOBUF_CONTENT_TYPES = ['application/x-protobuf', 'application/protobuf'];

/**
 * What the OTLP routes take: protobuf (refused elsewhere), and OTLP/JSON read here rather
 * than by the JSON parser, as it may come gzipped (decoded after decompression, under the
 * same JSON rules).
 */
export const OTLP_BODY_INTAKE: BodyIntake = {
  register: (fastify, { maxBodyBytes }) => registerProtobufBodyParser(fastify, maxBodyBytes),
  readJson: (request, body, { maxBodyBytes }) => (isOtlpRoute(request) ? readOtlpBody(request, body, 'json', maxBodyBytes) : undefined),
};

/**
 * Takes protobuf bodies, for the OTLP routes only (any other route refuses them, 415, as it
 * refuses every type but JSON).
 */
export function registerProtobufBodyParser(fastify: FastifyInstance, maxBodyBytes: number): void {
  fastify.addContentTypeParser(PROTOBUF_CONTENT_TYPES, (request, payload, done) => {
    if (!isOtlpRoute(request)) {
      done(new DomainError(ErrorCode.UnsupportedMediaType, 'Send the body as application/json'), undefined);
      return;
    }
    readRawBody(request, payload, bodyLimitOf(request, maxBodyBytes), (length) => OTLP_BODY_MEMORY.take(length))
      .then((bytes) => (isIdentity(request) ? { encoding: 'protobuf' as const, bytes } : readOtlpBody(request, bytes, 'protobuf', maxBodyBytes)))
      .then(
        (read) => done(null, read),
        (err: Error) => done(err, undefined),
      );
  });
}

/**
 * The body's bytes, gunzipped when Content-Encoding says gzip (the one compression OTLP/HTTP
 * names). The compressed body is already within the body limit (Fastify counted it). A body
 * that decompresses to a small export (ON_LOOP_MAX_BYTES) is decompressed here, which costs
 * the loop well under a millisecond; any larger one stays compressed (`gzipped`) and is
 * decompressed on a decoding thread, bounded there by the body limit (a gzip bomb costs at
 * most that much memory, and a few KiB of it never cost the loop megabytes of copies).
 */
export async function readOtlpBody(request: FastifyRequest, body: Buffer, encoding: OtlpEncoding, maxBodyBytes: number): Promise<OtlpBody> {
  const contentEncoding = contentEncodingOf(request);
  if (contentEncoding === 'identity' || contentEncoding === '') return { encoding, bytes: body };
  if (contentEncoding !== 'gzip') {
    throw new DomainError(ErrorCode.UnsupportedMediaType, `Content-Encoding ${contentEncoding.slice(0, 32)} is not supported; send gzip or none`);
  }
  if (body.length > ON_LOOP_MAX_BYTES) return { encoding, bytes: body, gzipped: true };
  try {
    return { encoding, bytes: gunzipWithin(body, ON_LOOP_MAX_BYTES) };
  } catch (err) {
    if (err instanceof DomainError && err.code === ErrorCode.PayloadTooLarge) return { encoding, bytes: body, gzipped: true };
    throw err;
  }
}

const contentEncodingOf = (request: FastifyRequest) =>
  String(request.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();

/** Whether the body came as it is (no Content-Encoding): then it needs no reading at all. */
function isIdentity(request: FastifyRequest): boolean {
  const contentEncoding = contentEncodingOf(request);
  return contentEncoding === 'identity' || contentEncoding === '';
}

/** The encoding an OTLP request asked for, so its answer (errors included) goes out in it; JSON when unknown. */
export function requestEncoding(request: FastifyRequest): OtlpEncoding {
  const type = String(request.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  return PROTOBUF_CONTENT_TYPES.includes(type) ? 'protobuf' : 'json';
}
