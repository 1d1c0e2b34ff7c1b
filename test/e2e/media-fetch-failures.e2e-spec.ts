import { expect } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

jest.setTimeout(60_000);

const MEDIA = '/api/v1/media';

/**
 * Sources that answer what is not media, or break off: a page (text/html), small or large, a
 * page that never ends, a video whose connection is cut mid-body. Each once made the process that fetched it
 * exit (an 'error' event of the dropped body nobody listened to), taking every other request
 * with it (issue 59).
 */
async function aBadSource(): Promise<{ url: (path: string) => string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    // A small page arrives whole before it is dropped: that drop is the one that ended the process.
    if (req.url === '/page.html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><p>a page</p></html>');
    if (req.url === '/large.html') return res.writeHead(200, { 'content-type': 'text/html' }).end(`<html>${'<p>a page</p>'.repeat(20_000)}</html>`);
    if (req.url === '/endless.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return void res.write('<html>'.padEnd(256 * 1024, ' '));
    }
    if (req.url === '/cut.mp4') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': 4 * 1024 * 1024 });
      return void res.write(Buffer.alloc(256 * 1024, 1), () => res.socket?.destroy());
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((closed) => server.close(() => closed()));
    },
  };
}

describe('Media { url } answers that are not media, or break off (OUTBOUND_ALLOW_PRIVATE for a local source)', () => {
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });

  it('refuses each (400 naming url), stores nothing, and the process that fetched keeps answering', async () => {
    const { api } = await inNewProject(ctx.api);
    const edge = ctx.stack.mode === 'all-in-one' ? 'all-in-one' : 'gateway';
    const pid = ctx.stack.pid(edge);
    const source = await aBadSource();
    try {
      for (const path of ['/page.html', '/large.html', '/endless.html', '/cut.mp4', '/page.html']) {
        const answer = await api.post(MEDIA, { url: source.url(path) });
        expect({ path, status: answer.status }).toEqual({ path, status: 400 });
        expectProblem(answer, 400, 'validation_failed', ['url']);
      }
      // The dropped bodies' errors come a moment later: the process must still be the same one, answering.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(ctx.stack.pid(edge)).toBe(pid);
      const listed = await api.get<Answer<'listMedia'>>(MEDIA);
      expect(listed.status).toBe(200);
      expect(listed.body.data).toEqual([]);
    } finally {
      await source.close();
    }
  });
});
