import { ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { MediaStorageEnv, validateEnv } from '@cinetrace/config';
import { startS3Server, type S3Server } from '@cinetrace/testing';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { BlobNotFoundError, BlobRangeError, BlobTooLargeError, derivedBlobKey, resolveRange, type BlobStore } from './blob-store';
import { blobStoreFrom, s3ClientFrom } from './blob-store-from-env';

/** A driver under test, and how to list everything it holds (to prove a failed put leaves nothing). */
interface Driver {
  store: BlobStore;
  leftovers(): Promise<string[]>;
}

/** A stream of `total` bytes made in chunks, never held whole. */
function generated(total: number, chunk = 1024 * 1024, seed = 7): Readable {
  let sent = 0;
  const block = Buffer.alloc(chunk, seed);
  return new Readable({
    read() {
      if (sent >= total) return this.push(null);
      const size = Math.min(chunk, total - sent);
      sent += size;
      this.push(block.subarray(0, size));
    },
  });
}

const MiB = 1024 * 1024;

const drivers: [string, () => Promise<Driver & { close(): Promise<void> }>][] = [
  [
    'the filesystem driver',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'blobs-'));
      const store = blobStoreFrom({ ...validateEnv(MediaStorageEnv, {}), DATA_DIR: dir });
      const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(at, e.name)) : [join(at, e.name)]));
      const root = join(dir, 'media');
      return {
        store,
        leftovers: async () => (existsSync(root) ? walk(root) : []).map((f) => f.slice(root.length + 1)),
        close: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  ],
  [
    'the S3 driver (against S3Mock)',
    async () => {
      const server: S3Server = await startS3Server('media-test');
      const settings = validateEnv(MediaStorageEnv, { MEDIA_STORAGE: 's3', ...server.env });
      const client = s3ClientFrom(settings);
      const leftovers = async () => {
        const objects = await client.send(new ListObjectsV2Command({ Bucket: 'media-test' }));
        const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket: 'media-test' }));
        return [...(objects.Contents ?? []).map((o) => o.Key!), ...(uploads.Uploads ?? []).map((u) => `upload ${u.Key}`)];
      };
      return { store: blobStoreFrom(settings), leftovers, close: () => server.remove() };
    },
  ],
];

describe.each(drivers)('%s', (_, makeDriver) => {
  let driver: Driver & { close(): Promise<void> };
  beforeAll(async () => {
    driver = await makeDriver();
  }, 180_000);
  afterAll(() => driver?.close());

  it('stores a stream under its content key, hashing and counting it', async () => {
    const bytes = randomBytes(300_000);
    const stored = await driver.store.put('prj_a', Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]), { maxBytes: 1_000_000, contentType: 'video/mp4' });
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(stored).toEqual({ key: `prj_a/${sha256}`, sha256, bytes: 300_000 });
    expect(await driver.store.stat(stored.key)).toEqual({ bytes: 300_000 });
    const read = await driver.store.get(stored.key);
    expect({ start: read.start, end: read.end, totalBytes: read.totalBytes }).toEqual({ start: 0, end: 299_999, totalBytes: 300_000 });
    expect((await buffer(read.body)).equals(bytes)).toBe(true);
  });

  it('gives the same bytes the same key, once, and other projects their own', async () => {
    const bytes = randomBytes(5000);
    const first = await driver.store.put('prj_b', Readable.from([bytes]), { maxBytes: 10_000 });
    const second = await driver.store.put('prj_b', Readable.from([bytes]), { maxBytes: 10_000 });
    const elsewhere = await driver.store.put('prj_c', Readable.from([bytes]), { maxBytes: 10_000 });
    expect(second).toEqual(first);
    expect(elsewhere.key).toBe(`prj_c/${first.sha256}`);
    expect((await driver.leftovers()).filter((key) => key.endsWith(first.sha256)).sort()).toEqual([`prj_b/${first.sha256}`, `prj_c/${first.sha256}`]);
  });

  it('reads exactly the bytes of a range', async () => {
    const bytes = randomBytes(10 * MiB + 123);
    const { key } = await driver.store.put('prj_a', Readable.from([bytes]), { maxBytes: 20 * MiB });
    const cases = [
      [{ start: 0, end: 1 }, 0, 1],
      [{ start: 9 * MiB - 5, end: 9 * MiB + 10 }, 9 * MiB - 5, 9 * MiB + 10],
      [{ start: 10 * MiB }, 10 * MiB, 10 * MiB + 122],
      [{ start: 10 * MiB + 100, end: 99 * MiB }, 10 * MiB + 100, 10 * MiB + 122],
      [{ suffix: 7 }, 10 * MiB + 116, 10 * MiB + 122],
    ] as const;
    for (const [range, start, end] of cases) {
      const read = await driver.store.get(key, range);
      expect({ start: read.start, end: read.end, totalBytes: read.totalBytes }).toEqual({ start, end, totalBytes: bytes.length });
      expect((await buffer(read.body)).equals(bytes.subarray(start, end + 1))).toBe(true);
    }
    await expect(driver.store.get(key, { start: bytes.length })).rejects.toEqual(new BlobRangeError(bytes.length));
  });

  it('fails a put past maxBytes with a typed error, and leaves nothing behind', async () => {
    const before = await driver.leftovers();
    // Past the S3 driver's 8 MiB part: a multipart upload was under way when the limit hit.
    const source = generated(20 * MiB);
    await expect(driver.store.put('prj_d', source, { maxBytes: 12 * MiB })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(source.destroyed).toBe(true); // nothing is left reading it
    await expect(driver.store.put('prj_d', generated(1001), { maxBytes: 1000 })).rejects.toEqual(new BlobTooLargeError(1000));
    expect(await driver.leftovers()).toEqual(before);
  });

  it('fails a put whose source fails, and leaves nothing behind', async () => {
    const before = await driver.leftovers();
    const broken = new Readable({ read() {} });
    broken.push(Buffer.alloc(1000));
    setTimeout(() => broken.destroy(new Error('the client went away')), 20);
    await expect(driver.store.put('prj_d', broken, { maxBytes: 10_000 })).rejects.toThrow('the client went away');
    expect(await driver.leftovers()).toEqual(before);
  });

  it('fails a put whose source fails before a byte is read, and leaves nothing behind', async () => {
    const before = await driver.leftovers();
    const broken = new Readable({ read() {} });
    const put = driver.store.put('prj_d', broken, { maxBytes: 10_000 });
    // At once, while the driver is still getting ready to read (the filesystem driver makes its folder first).
    broken.destroy(new Error('the client went away at once'));
    await expect(put).rejects.toThrow('the client went away at once');
    const derived = new Readable({ read() {} });
    const putDerived = driver.store.putDerived(derivedBlobKey(`prj_d/${'a'.repeat(64)}`, '.frame-1.jpg'), derived, { maxBytes: 10_000 });
    derived.destroy(new Error('gone too'));
    await expect(putDerived).rejects.toThrow('gone too');
    expect(await driver.leftovers()).toEqual(before);
  });

  // A put holds a few chunks (fs) or parts (S3: 8 MiB × 2 in flight) at a time, whatever the size.
  // BLOB_PUT_MEASURE_BYTES=1073741824 measures a 1 GiB put (docs/deploy.md, "Media storage").
  it('streams a large put in flat memory', async () => {
    const total = Number(process.env.BLOB_PUT_MEASURE_BYTES ?? 256 * MiB);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const started = Date.now();
    try {
      const stored = await driver.store.put('prj_big', generated(total, 256 * 1024, 42), { maxBytes: total });
      expect(stored.bytes).toBe(total);
      await driver.store.delete(stored.key);
    } finally {
      clearInterval(sampler);
    }
    const growthMiB = (peak - before) / MiB;
    console.log(
      `${total / MiB} MiB put: RSS grew ${growthMiB.toFixed(1)} MiB at most (${(before / MiB) | 0} → ${(peak / MiB) | 0} MiB), ${(total / MiB / ((Date.now() - started) / 1000)).toFixed(0)} MiB/s`,
    );
    expect(growthMiB).toBeLessThan(96);
  }, 600_000);

  it('stores an empty blob', async () => {
    const stored = await driver.store.put('prj_e', Readable.from([]), { maxBytes: 10 });
    expect(stored.bytes).toBe(0);
    const read = await driver.store.get(stored.key);
    expect((await buffer(read.body)).length).toBe(0);
  });

  it('stores a derived blob beside its blob, replaces it whole, caps it, and refuses any other key', async () => {
    const { key } = await driver.store.put('prj_g', Readable.from([Buffer.from('a video')]), { maxBytes: 100 });
    const frameKey = derivedBlobKey(key, '.frame-1500.jpg');
    expect(frameKey).toBe(`${key}.frame-1500.jpg`);
    expect(await driver.store.putDerived(frameKey, Readable.from([Buffer.from('first')]), { maxBytes: 100, contentType: 'image/jpeg' })).toEqual({ bytes: 5 });
    await driver.store.putDerived(frameKey, Readable.from([Buffer.from('second frame')]), { maxBytes: 100 });
    expect((await buffer((await driver.store.get(frameKey)).body)).toString()).toBe('second frame');
    expect((await buffer((await driver.store.get(key)).body)).toString()).toBe('a video');
    await expect(driver.store.putDerived(frameKey, generated(101), { maxBytes: 100 })).rejects.toBeInstanceOf(BlobTooLargeError);
    expect(await driver.store.stat(frameKey)).toEqual({ bytes: 12 });
    expect(() => derivedBlobKey(key, '/../x')).toThrow(TypeError);
    expect(() => derivedBlobKey('prj_g/x', '.frame-1.jpg')).toThrow(TypeError);
    await expect(driver.store.putDerived(key, Readable.from([]), { maxBytes: 10 })).rejects.toThrow(TypeError);
  });

  it('deletes, and answers a missing or foreign key as not found', async () => {
    const { key } = await driver.store.put('prj_f', Readable.from([Buffer.from('bye')]), { maxBytes: 10 });
    await driver.store.delete(key);
    await driver.store.delete(key);
    expect(await driver.store.stat(key)).toBeUndefined();
    await expect(driver.store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(driver.store.get('../../etc/passwd')).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(driver.store.put('../prj', Readable.from([]), { maxBytes: 10 })).rejects.toThrow(TypeError);
  });
});

describe('resolveRange', () => {
  it('reads ranges as HTTP does', () => {
    expect(resolveRange(undefined, 10)).toEqual({ start: 0, end: 9 });
    expect(resolveRange({ start: 0, end: 1 }, 10)).toEqual({ start: 0, end: 1 });
    expect(resolveRange({ start: 5, end: 50 }, 10)).toEqual({ start: 5, end: 9 });
    expect(resolveRange({ suffix: 50 }, 10)).toEqual({ start: 0, end: 9 });
    for (const range of [{ start: 10 }, { start: 3, end: 2 }, { start: -1 }, { suffix: 0 }, { start: 0.5 }]) expect(() => resolveRange(range, 10)).toThrow(BlobRangeError);
  });
});
