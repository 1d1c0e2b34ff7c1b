import { DomainError, ErrorCode } from '@cinetrace/contracts';
import type { FastifyRequest } from 'fastify';
import { gzipSync } from 'node:zlib';
import { readOtlpBody } from './otlp-body';
import { ON_LOOP_MAX_BYTES, gunzipWithin } from './otlp-gunzip';

const gzipped = { headers: { 'content-encoding': 'gzip' } } as unknown as FastifyRequest;
const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof DomainError ? err.code : 'not a DomainError';
  }
  return 'no error';
};

describe('gunzipWithin', () => {
  it('decompresses within the limit, answers 413 past it and 400 for bytes that are not gzip', () => {
    expect(gunzipWithin(gzipSync('hello'), 10).toString()).toBe('hello');
    expect(codeOf(() => gunzipWithin(gzipSync(Buffer.alloc(1000)), 999))).toBe(ErrorCode.PayloadTooLarge);
    expect(codeOf(() => gunzipWithin(Buffer.from('not gzip at all'), 1000))).toBe(ErrorCode.MalformedRequest);
  });
});

describe('readOtlpBody with gzip', () => {
  it('decompresses a body whose export is small on the loop, and leaves a larger one (a bomb too) compressed for a decoding thread', async () => {
    const small = await readOtlpBody(gzipped, gzipSync('small export'), 'protobuf', 5 << 20);
    expect(small).toEqual({ encoding: 'protobuf', bytes: Buffer.from('small export') });
    // 64 MiB of zeros are 64 KiB of gzip: the loop stops at ON_LOOP_MAX_BYTES of output and hands the compressed bytes on.
    const bomb = gzipSync(Buffer.alloc(64 << 20));
    const large = await readOtlpBody(gzipped, bomb, 'protobuf', 5 << 20);
    expect(large).toEqual({ encoding: 'protobuf', bytes: bomb, gzipped: true });
    const justOver = await readOtlpBody(gzipped, gzipSync(Buffer.alloc(ON_LOOP_MAX_BYTES + 1)), 'json', 5 << 20);
    expect(justOver.gzipped).toBe(true);
  });

  it('answers 400 for a body that says gzip and is not', async () => {
    await expect(readOtlpBody(gzipped, Buffer.from('plain'), 'protobuf', 5 << 20)).rejects.toMatchObject({ code: ErrorCode.MalformedRequest });
  });
});
