import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { OutboundClient } from './outbound-client';
import { OutboundError } from './outbound-error';
import { metricsRegistry } from '@cinetrace/metrics';

interface TestServer {
  port: number;
  url: string;
  /** Requests the server has seen. */
  requests: IncomingMessage[];
  close(): Promise<void>;
}

const servers: TestServer[] = [];
const timers = new Set<NodeJS.Timeout>();

async function serve(handler: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const requests: IncomingMessage[] = [];
  const listener: RequestListener = (req, res) => {
    requests.push(req);
    res.on('error', () => undefined);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  };
  const server = createServer(listener);
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  const close = () => {
    server.closeAllConnections();
    return new Promise<void>((closed) => server.close(() => closed()));
  };
  const testServer = { port, url: `http://127.0.0.1:${port}`, requests, close };
  servers.push(testServer);
  return testServer;
}

const json = (res: ServerResponse, status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

/** The error a call failed with; fails the test if it succeeded. */
async function failure(call: Promise<unknown>): Promise<OutboundError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

const clients: OutboundClient[] = [];
const client = (options: ConstructorParameters<typeof OutboundClient>[0]) => {
  const c = new OutboundClient(options);
  clients.push(c);
  return c;
};

afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

describe('OutboundClient, public addresses only', () => {
  it('refuses localhost before any request reaches the server', async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    const error = await failure(client({ allowPrivate: false }).postJson(`http://localhost:${server.port}/`, {}, { timeoutMs: 2000 }));
    expect(error.reason).toBe('refused_address');
    expect(server.requests).toHaveLength(0);
  });

  it('refuses an IP literal before any request reaches the server', async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    for (const host of ['127.0.0.1', '127.1', '[::ffff:7f00:1]']) {
      const error = await failure(client({ allowPrivate: false }).postJson(`http://${host}:${server.port}/`, {}, { timeoutMs: 2000 }));
      expect(error.reason).toBe('refused_address');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('refuses at connect time a public-looking name that resolves to loopback', async () => {
    const server = await serve((_, res) => json(res, 200, { reached: true }));
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const url = `http://rebind.example.com:${server.port}/score?key=s3cret`;

    const error = await failure(client({ allowPrivate: false, resolve }).postJson(url, {}, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ reason: 'refused_address', message: 'rebind.example.com resolves to a private, loopback or link-local address' });
    expect(server.requests).toHaveLength(0);
    // The same name through the same resolver does connect once private addresses are allowed.
    await expect(client({ allowPrivate: true, resolve }).postJson(url, {}, { timeoutMs: 2000 })).resolves.toEqual({ status: 200, body: { reached: true } });
  });
});

describe('OutboundClient, private addresses allowed', () => {
  const outbound = () => client({ allowPrivate: true, userAgent: 'cinetrace-test' });

  it('posts JSON and returns the JSON answer', async () => {
    const server = await serve((req, res, body) =>
      json(res, 201, {
        method: req.method,
        path: req.url,
        contentType: req.headers['content-type'],
        userAgent: req.headers['user-agent'],
        auth: req.headers.authorization,
        received: JSON.parse(body) as unknown,
      }),
    );
    const answer = await outbound().postJson(`${server.url}/judge?x=1`, { prompt: 'rate this', n: [1, 2] }, { headers: { Authorization: 'Bearer tok' }, timeoutMs: 2000 });
    expect(answer).toEqual({
      status: 201,
      body: { method: 'POST', path: '/judge?x=1', contentType: 'application/json', userAgent: 'cinetrace-test', auth: 'Bearer tok', received: { prompt: 'rate this', n: [1, 2] } },
    });
  });

  it('gets JSON', async () => {
    const server = await serve((req, res) => json(res, 200, { method: req.method }));
    await expect(outbound().getJson(`${server.url}/health`, { timeoutMs: 2000 })).resolves.toEqual({ status: 200, body: { method: 'GET' } });
  });

  it('does not follow a redirect', async () => {
    const target = await serve((_, res) => json(res, 200, { redirected: true }));
    const server = await serve((_, res) => res.writeHead(302, { location: `${target.url}/elsewhere` }).end());
    const error = await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ reason: 'redirect', status: 302 });
    expect(error.message).toMatch(/redirects are not followed/);
    expect(target.requests).toHaveLength(0);
  });

  it('gives up on a slow server after timeoutMs', async () => {
    const server = await serve((_, res) => timers.add(setTimeout(() => json(res, 200, {}), 2000)));
    const started = Date.now();
    const error = await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 300 }));
    expect(error).toMatchObject({ reason: 'timeout', message: `127.0.0.1:${server.port} did not answer within 300 ms` });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('drops the call at once when the caller aborts, and the server sees the connection close', async () => {
    let closedByClient!: () => void;
    const closed = new Promise<void>((resolve) => (closedByClient = resolve));
    const server = await serve((_, res) => {
      res.on('close', () => closedByClient());
      timers.add(setTimeout(() => json(res, 200, {}), 2000));
    });
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 100);
    const started = Date.now();
    const error = await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 5000, signal: caller.signal }));
    expect(error).toMatchObject({ reason: 'aborted', message: `the call to 127.0.0.1:${server.port} was abandoned` });
    await closed;
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('sends nothing when the caller has already aborted', async () => {
    const server = await serve((_, res) => json(res, 200, {}));
    const caller = new AbortController();
    caller.abort();
    expect(await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 2000, signal: caller.signal }))).toMatchObject({ reason: 'aborted' });
    expect(server.requests).toHaveLength(0);
  });

  it('gives up on a body that trickles in past timeoutMs', async () => {
    const server = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).write('{"a":');
      timers.add(setTimeout(() => res.end('1}'), 2000));
    });
    const started = Date.now();
    expect(await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 300 }))).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('stops reading an answer over 10 MiB', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const server = await serve((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Streamed without a content-length, so only counting the bytes can catch it.
      Readable.from(
        (function* () {
          for (let i = 0; i < 11 * 16; i++) yield chunk;
        })(),
      ).pipe(res);
    });
    const error = await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 5000 }));
    expect(error).toMatchObject({ reason: 'too_large', message: `the answer of 127.0.0.1:${server.port} is larger than 10 MiB` });
  });

  it('refuses an announced content-length over the limit without reading the body', async () => {
    const server = await serve((_, res) => res.writeHead(200, { 'content-length': '2048' }).end(' '.repeat(2048)));
    const error = await failure(client({ allowPrivate: true, maxResponseBytes: 1024 }).getJson(`${server.url}/`, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ reason: 'too_large', message: `the answer of 127.0.0.1:${server.port} is larger than 1024 bytes` });
  });

  it('fails on an error status without repeating headers, query or body', async () => {
    const server = await serve((_, res) => json(res, 500, { error: 'boom', echoed: 'Bearer s3cret' }));
    const error = await failure(outbound().postJson(`${server.url}/v1?api_key=s3cret`, {}, { headers: { authorization: 'Bearer s3cret' }, timeoutMs: 2000 }));
    expect(error).toMatchObject({ reason: 'http_status', status: 500, message: `127.0.0.1:${server.port} answered with status 500` });
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('s3cret');
  });

  it('fails on an answer that is not JSON', async () => {
    const server = await serve((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    expect(await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 2000 }))).toMatchObject({ reason: 'invalid_json' });
  });

  it('reports a refused connection as a network failure', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const error = await failure(outbound().postJson(`${server.url}/`, {}, { timeoutMs: 2000 }));
    expect(error).toMatchObject({ reason: 'network', message: `could not reach 127.0.0.1:${server.port} (ECONNREFUSED)` });
  });
});

describe('allowPrivate (OUTBOUND_ALLOW_PRIVATE)', () => {
  it('lets a client call private addresses only when set', async () => {
    const server = await serve((_, res) => json(res, 200, { ok: true }));
    const allowed = new OutboundClient({ allowPrivate: true });
    const refused = new OutboundClient({ allowPrivate: false });
    clients.push(allowed, refused);
    await expect(allowed.getJson(`${server.url}/`, { timeoutMs: 2000 })).resolves.toEqual({ status: 200, body: { ok: true } });
    expect(await failure(refused.getJson(`${server.url}/`, { timeoutMs: 2000 }))).toMatchObject({ reason: 'refused_address' });
  });
});

describe('OutboundClient metrics', () => {
  /** Calls observed for a target type and outcome (the histogram's count). */
  async function calls(targetType: string, outcome: string): Promise<number> {
    const metric = (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === 'cinetrace_outbound_request_duration_seconds');
    const sample = metric?.values.find((v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.target_type === targetType && v.labels.outcome === outcome);
    return sample?.value ?? 0;
  }

  it('times each call by target type and outcome, never by URL', async () => {
    const server = await serve((_req, res) => json(res, 200, { ok: true }));
    const failing = await serve((_req, res) => json(res, 500, {}));
    const outbound = client({ allowPrivate: true });
    const [ok, failed, unnamed] = [await calls('openai_chat', 'ok'), await calls('scorer', 'http_status'), await calls('other', 'ok')];
    await outbound.postJson(`${server.url}/v1/chat?key=secret`, {}, { timeoutMs: 2000, targetType: 'openai_chat' });
    await failure(outbound.postJson(failing.url, {}, { timeoutMs: 2000, targetType: 'scorer' }));
    await outbound.getJson(server.url, { timeoutMs: 2000 });
    expect(await calls('openai_chat', 'ok')).toBe(ok + 1);
    expect(await calls('scorer', 'http_status')).toBe(failed + 1);
    expect(await calls('other', 'ok')).toBe(unnamed + 1);
    expect(await metricsRegistry.metrics()).not.toContain('127.0.0.1');
  });
});

describe('OutboundClient.getStream', () => {
  const outbound = () => client({ allowPrivate: true });
  const collect = async (body: Readable) => {
    const chunks: Buffer[] = [];
    for await (const chunk of body as AsyncIterable<Buffer>) chunks.push(chunk);
    return Buffer.concat(chunks);
  };

  it('hands the body to the consumer with the content type, and answers what it answers', async () => {
    const server = await serve((_, res) => res.writeHead(200, { 'content-type': 'video/mp4' }).end(Buffer.from([0, 1, 2, 3])));
    const got = await outbound().getStream(`${server.url}/clip.mp4`, { timeoutMs: 2000 }, async (body, head) => ({ bytes: [...(await collect(body))], head }));
    expect(got).toEqual({ bytes: [0, 1, 2, 3], head: { status: 200, contentType: 'video/mp4' } });
  });

  it('refuses a private address without connecting when private addresses are not allowed', async () => {
    const server = await serve((_, res) => res.end('x'));
    const consume = jest.fn();
    expect(await failure(client({ allowPrivate: false }).getStream(`${server.url}/`, { timeoutMs: 2000 }, consume))).toMatchObject({ reason: 'refused_address' });
    expect(server.requests).toHaveLength(0);
    expect(consume).not.toHaveBeenCalled();
  });

  it('fails on an error status or a redirect without calling the consumer', async () => {
    const gone = await serve((_, res) => res.writeHead(404).end('gone'));
    const moved = await serve((_, res) => res.writeHead(302, { location: 'http://example.com/' }).end());
    const consume = jest.fn();
    expect(await failure(outbound().getStream(`${gone.url}/`, { timeoutMs: 2000 }, consume))).toMatchObject({ reason: 'http_status', status: 404 });
    expect(await failure(outbound().getStream(`${moved.url}/`, { timeoutMs: 2000 }, consume))).toMatchObject({ reason: 'redirect', status: 302 });
    expect(consume).not.toHaveBeenCalled();
  });

  it("passes the consumer's own failure through as it is", async () => {
    const server = await serve((_, res) => res.end('bytes'));
    const mine = new Error('mine');
    await expect(outbound().getStream(`${server.url}/`, { timeoutMs: 2000 }, () => Promise.reject(mine))).rejects.toBe(mine);
  });

  it('cuts off a body that trickles in past timeoutMs, consumer included', async () => {
    const server = await serve((_, res) => {
      res.writeHead(200).write('first');
      timers.add(setTimeout(() => res.end('last'), 2000));
    });
    const started = Date.now();
    expect(await failure(outbound().getStream(`${server.url}/`, { timeoutMs: 300 }, collect))).toMatchObject({ reason: 'timeout' });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
