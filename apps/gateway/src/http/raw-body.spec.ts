import Fastify, { type FastifyInstance } from 'fastify';
import { connect } from 'node:net';
import { ownsItsMemory } from './owned-bytes';
import { bodyLimitOf, readRawBody } from './raw-body';

const LIMIT = 1024;

/** A server whose one route answers what readRawBody read: its length, bytes, and whether it owns its memory. */
async function serverReading(): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ bodyLimit: LIMIT });
  app.addContentTypeParser('application/octet-stream', (request, payload, done) => {
    readRawBody(request, payload, bodyLimitOf(request, LIMIT)).then(
      (body) => done(null, body),
      (err: Error) => done(err, undefined),
    );
  });
  app.post('/', async (request) => {
    const body = request.body as Buffer;
    return { length: body.length, text: body.toString('latin1'), owns: ownsItsMemory(body) };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

/** Sends `request` as raw bytes and resolves with the status line of the answer ('' if the connection closed without one). */
function rawExchange(port: number, request: string, { endAfterWrite = false } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (endAfterWrite) socket.end();
    });
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', () => undefined);
  });
}

describe('readRawBody', () => {
  let app: FastifyInstance;
  let port: number;
  beforeAll(async () => ({ app, port } = await serverReading()));
  afterAll(() => app.close());

  it('reads a body whose Content-Length is known into one buffer of that size, which owns its memory (movable to a thread)', async () => {
    const sent = 'x'.repeat(700) + 'end';
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: sent });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ length: sent.length, text: sent, owns: true });
  });

  it('joins a chunked body (no Content-Length) as it ends', async () => {
    const parts = ['first,', 'second,', 'third'];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body, duplex: 'half' } as RequestInit);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ text: parts.join('') });
  });

  it('refuses a Content-Length past the limit with 413 before reading, as Fastify does', async () => {
    const status = await rawExchange(port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${LIMIT + 1}\r\n\r\n`);
    expect(status).toMatch(/^HTTP\/1\.1 413/);
  });

  it('refuses a chunked body that grows past the limit with 413', async () => {
    const chunk = 'y'.repeat(600);
    const chunked = `${chunk.length.toString(16)}\r\n${chunk}\r\n`.repeat(2) + '0\r\n\r\n';
    const status = await rawExchange(port, `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`);
    expect(status).toMatch(/^HTTP\/1\.1 413/);
  });

  it('survives a client that goes away mid-body: the request fails, the server keeps answering', async () => {
    const status = await rawExchange(port, 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: 500\r\n\r\nonly a few bytes', {
      endAfterWrite: true,
    });
    expect(status).not.toMatch(/^HTTP\/1\.1 200/);
    const after = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: 'still here' });
    expect(await after.json()).toMatchObject({ text: 'still here' });
  });
});

describe('ownsItsMemory', () => {
  it('is true only for a view of the whole of its own memory', () => {
    expect(ownsItsMemory(Buffer.allocUnsafeSlow(16))).toBe(true);
    expect(ownsItsMemory(Buffer.from('small'))).toBe(false); // a slice of Node's shared pool
    expect(ownsItsMemory(new Uint8Array(new ArrayBuffer(32), 8, 8))).toBe(false);
  });
});
