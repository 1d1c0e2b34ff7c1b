import { randomBytes } from 'node:crypto';

// Both from kafkajs (patches/kafkajs+2.2.4.patch): what a record batch's checksum is computed
// with, and its own byte-wise loop, the reference.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const batchCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C') as (buffer: Buffer) => number;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const referenceCrc32c = require('kafkajs/src/protocol/recordBatch/crc32C/crc32C') as (buffer: Buffer) => number;

describe("kafkajs' record batch CRC-32C (patched to native code)", () => {
  it('is the standard check value of "123456789"', () => {
    expect(batchCrc32c(Buffer.from('123456789'))).toBe(0xe3069283);
  });

  it('equals the byte-wise reference on random buffers of every size a batch has', () => {
    for (const size of [0, 1, 7, 64, 1000, 65_537]) {
      const buffer = randomBytes(size);
      expect(batchCrc32c(buffer)).toBe(referenceCrc32c(buffer) >>> 0);
    }
  });

  it('is the native one (@node-rs/crc32), not the fallback loop: the patch is applied and the package installed', () => {
    expect(require.resolve('@node-rs/crc32')).toBeTruthy();
    expect(String(batchCrc32c)).toMatch(/native\(buffer\)/);
  });
});
