import fc from 'fast-check';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server whose answers a media `{ url }` fetch meets in the wild, chosen by the
 * path (`/<status>/<type>/<body>`): pages and JSON that are not media, media types with
 * bytes that are not, empty or endless bodies, bodies cut off mid-way or before any byte,
 * redirects and errors. For the fuzz suite's media case (issue 59: a page once ended the process).
 */
export interface MediaSourceAnswer {
  status: 200 | 204 | 302 | 404 | 500;
  /** The Content-Type sent; `none` sends none. */
  type: 'text/html' | 'application/json' | 'text/plain' | 'application/octet-stream' | 'video/mp4' | 'image/png' | 'none';
  /** small and large end; endless never ends (the fetch's time cap or the refusal ends it); cut breaks the connection after some bytes; reset before any. */
  body: 'small' | 'large' | 'empty' | 'endless' | 'cut' | 'reset';
}

export const aMediaSourceAnswer: fc.Arbitrary<MediaSourceAnswer> = fc.record({
  status: fc.constantFrom(200, 200, 200, 204, 302, 404, 500),
  type: fc.constantFrom('text/html', 'application/json', 'text/plain', 'application/octet-stream', 'video/mp4', 'image/png', 'none'),
  body: fc.constantFrom('small', 'large', 'empty', 'endless', 'cut', 'reset'),
});

/** What a client may name beside the url: nothing, a media type, a type that is not one, an odd string. */
export const aMediaContentType: fc.Arbitrary<string | undefined> = fc.constantFrom(undefined, undefined, 'video/mp4', 'image/png', 'text/html', 'video/', '');

const SMALL = Buffer.from('<html><p>not a video</p></html>');
const CHUNK = Buffer.alloc(64 * 1024, 0x3c);

function answer(path: string, res: ServerResponse): void {
  const [, status, type, body] = path.split('/');
  if (body === 'reset') return void res.socket?.destroy();
  const headers: Record<string, string | number> = type === 'none' ? {} : { 'content-type': decodeURIComponent(type ?? '') };
  if (status === '302') headers.location = '/200/video%2Fmp4/small';
  if (body === 'small') return void res.writeHead(Number(status), { ...headers, 'content-length': SMALL.length }).end(SMALL);
  if (body === 'empty') return void res.writeHead(Number(status), headers).end();
  if (body === 'large') return void res.writeHead(Number(status), headers).end(Buffer.alloc(2 * 1024 * 1024, 0x3c));
  res.writeHead(Number(status), { ...headers, 'content-length': 8 * 1024 * 1024 });
  if (body === 'cut') return void res.write(CHUNK, () => res.socket?.destroy());
  // endless: a chunk now and then, until the fetch gives up on it.
  const timer = setInterval(() => res.write(CHUNK), 50);
  res.once('close', () => clearInterval(timer));
}

export interface MediaSources {
  url(answer: MediaSourceAnswer): string;
  /** Requests the server received. */
  readonly hits: number;
  close(): Promise<void>;
}

export async function startMediaSources(): Promise<MediaSources> {
  let hits = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    hits++;
    answer(req.url ?? '/', res);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: ({ status, type, body }) => `http://127.0.0.1:${port}/${status}/${encodeURIComponent(type)}/${body}`,
    get hits() {
      return hits;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}
