import { expect } from '@jest/globals';
import { FsBlobStore } from '@cinetrace/blob-store';
import { OutboundClient, OutboundError, type OutboundRequestOptions, type OutboundStreamHead } from '@cinetrace/outbound';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { fetchMedia, NotMediaError } from './fetch-media';

/** A page of HTML larger than one read, so that the fetch drops its body unread. */
const PAGE = `<html><body>${'<p>not a video</p>'.repeat(20_000)}</body></html>`;

const answers: Record<string, RequestListener> = {
  '/page.html': (_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE),
  // Says video and 1 MiB, sends 64 KiB, then the connection breaks.
  '/broken.mp4': (_, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 1024 * 1024 });
    res.write(Buffer.alloc(64 * 1024, 1), () => res.socket?.destroy());
  },
};

describe('fetchMedia', () => {
  let server: Server;
  let base: string;
  let root: string;
  let outbound: OutboundClient;
  /** The bodies fetchMedia was handed: an 'error' one of them emits must have a listener (else it ends the process). */
  const bodies: Readable[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const answer = answers[req.url ?? ''];
      if (answer) answer(req, res);
      else res.writeHead(404).end();
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    root = mkdtempSync(join(tmpdir(), 'fetch-media-'));
    outbound = new (class extends OutboundClient {
      override getStream<T>(url: string, options: OutboundRequestOptions, consume: (body: Readable, head: OutboundStreamHead) => Promise<T>): Promise<T> {
        return super.getStream(url, options, (body, head) => consume(bodies[bodies.push(body) - 1], head));
      }
    })({ allowPrivate: true });
  });

  afterAll(async () => {
    await outbound.close();
    await new Promise<void>((closed) => server.close(() => closed()));
    rmSync(root, { recursive: true, force: true });
  });

  const fetchFrom = (path: string) => fetchMedia(outbound, new FsBlobStore(root), 'prj_a', `${base}${path}`, { maxBytes: 1 << 20, timeoutMs: 5000 });
  /** emit() throws when nobody listens: in the service that is an uncaught exception, and the process ends. */
  const lateErrorIsHandled = (body: Readable | undefined) => expect(() => body?.emit('error', new Error('late'))).not.toThrow();

  it('refuses a page that is not media, dropping its body without an unhandled error (which ended the process)', async () => {
    await expect(fetchFrom('/page.html')).rejects.toBeInstanceOf(NotMediaError);
    expect(bodies.at(-1)?.destroyed).toBe(true);
    lateErrorIsHandled(bodies.at(-1));
  });

  it('calls a body that breaks off the fetch failure it is (network, naming the host), stores nothing and leaves nothing unhandled', async () => {
    const failure = fetchFrom('/broken.mp4');
    await expect(failure).rejects.toBeInstanceOf(OutboundError);
    await expect(failure).rejects.toMatchObject({ reason: 'network', message: expect.stringContaining('127.0.0.1') });
    lateErrorIsHandled(bodies.at(-1));
    expect(readdirSync(root).filter((name) => name !== '.incoming')).toEqual([]);
  });
});
