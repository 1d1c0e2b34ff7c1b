import { aProject, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { problemIn, RawConnection } from './support/raw-http';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

jest.setTimeout(60_000);

/** Short limits, so the tests wait seconds, not the minutes of the defaults. */
const HEADERS_MS = 1000;
const REQUEST_MS = 2000;
const KEEP_ALIVE_MS = 1500;
/** Node checks its limits every tenth of the shorter one; the rest is a busy two-core machine. */
const SLACK_MS = 1500;

const PROJECTS = '/api/v1/projects';

describe('Time limits on slow clients', () => {
  const ctx = useStack({
    env: { HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_MS), HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_MS), HTTP_KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_MS) },
  });

  const requestHead = (body: string, requestId: string) =>
    `POST ${PROJECTS} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.stack.apiKey}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n\r\n`;

  /** Writes `bytes` one at a time, `everyMs` apart, until all are sent or the server closes. */
  async function trickle(connection: RawConnection, bytes: string, everyMs: number): Promise<void> {
    for (const byte of bytes) {
      if (!(await connection.write(byte))) return;
      await sleep(everyMs);
    }
  }

  const countNamed = async (name: string) => (await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { args: JSON.stringify({ name }) })).body.data.length;

  it('cuts off a client trickling its body with 408 after HTTP_REQUEST_TIMEOUT_MS, serving other clients meanwhile', async () => {
    const name = unique('Trickled');
    const body = JSON.stringify(aProject({ name }));
    const requestId = unique('trickle');
    const connection = await RawConnection.open(ctx.stack.baseUrl);
    const started = Date.now();
    await connection.write(requestHead(body, requestId));
    const trickling = trickle(connection, body, 100); // 10 bytes a second: the body would need ~5 s

    const others: Array<{ status: number; ms: number }> = [];
    while (!connection.isClosed && Date.now() - started < REQUEST_MS + SLACK_MS + 1000) {
      const sent = Date.now();
      const response = await ctx.api.get(PROJECTS, { limit: 1 });
      others.push({ status: response.status, ms: Date.now() - sent });
      await sleep(100);
    }
    await trickling;

    const answer = await connection.response();
    const cutAfter = (connection.closedTime ?? Date.now()) - started;
    expect({ status: answer.status, code: problemIn(answer)?.code }).toEqual({ status: 408, code: 'request_timeout' });
    expect(answer.headers['content-type']).toMatch(/^application\/problem\+json\b/);
    expect(answer.headers['x-request-id']).toBe(requestId);
    expect(problemIn(answer)?.requestId).toBe(requestId);
    expect(connection.isClosed).toBe(true);
    expect(cutAfter).toBeGreaterThanOrEqual(REQUEST_MS - 100);
    expect(cutAfter).toBeLessThan(REQUEST_MS + SLACK_MS);

    expect(others.length).toBeGreaterThan(5);
    expect(others.every((r) => r.status === 200)).toBe(true);
    expect(Math.max(...others.map((r) => r.ms))).toBeLessThan(1000);
    expect(await countNamed(name)).toBe(0);
  });

  it('cuts off a client trickling its headers, or sending nothing, after HTTP_HEADERS_TIMEOUT_MS', async () => {
    const trickler = await RawConnection.open(ctx.stack.baseUrl);
    const silent = await RawConnection.open(ctx.stack.baseUrl);
    const started = Date.now();
    const trickling = trickle(trickler, `GET ${PROJECTS} HTTP/1.1\r\nHost: x\r\nX-Padding: ${'p'.repeat(100)}\r\n\r\n`, 50);
    for (const connection of [trickler, silent]) {
      const answer = await connection.response(HEADERS_MS + SLACK_MS + 1000);
      expect({ status: answer.status, code: problemIn(answer)?.code }).toEqual({ status: 408, code: 'request_timeout' });
      expect(answer.headers['x-request-id']).toBe(problemIn(answer)?.requestId);
      await connection.closed;
      expect((connection.closedTime ?? 0) - started).toBeLessThan(HEADERS_MS + SLACK_MS);
    }
    await trickling;
  });

  it('serves a slow upload that finishes within the limit', async () => {
    const name = unique('Slow but steady');
    const body = JSON.stringify(aProject({ name }));
    const connection = await RawConnection.open(ctx.stack.baseUrl);
    await connection.write(requestHead(body, unique('steady')));
    // The whole body within ~1 s: below HTTP_REQUEST_TIMEOUT_MS, even though no byte came quickly.
    for (let at = 0; at < body.length; at += Math.ceil(body.length / 5)) {
      await sleep(200);
      await connection.write(body.slice(at, at + Math.ceil(body.length / 5)));
    }
    expect((await connection.response()).status).toBe(201);
    connection.close();
    expect(await countNamed(name)).toBe(1);
  });

  it('closes an idle keep-alive connection after HTTP_KEEP_ALIVE_TIMEOUT_MS without writing to it', async () => {
    const connection = await RawConnection.open(ctx.stack.baseUrl);
    await connection.write(`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`);
    const answer = await connection.response();
    expect(answer.status).toBe(200);
    const answeredAt = Date.now();
    await connection.closed;
    const idle = (connection.closedTime ?? 0) - answeredAt;
    expect(connection.receivedSize).toBe(answer.size);
    expect(idle).toBeGreaterThanOrEqual(KEEP_ALIVE_MS - 100);
    // Node keeps a keep-alive socket up to a second past the limit it announces.
    expect(idle).toBeLessThan(KEEP_ALIVE_MS + 1000 + SLACK_MS);
  });
});
