import { aProject, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { problemIn, RawConnection } from './support/raw-http';
import { useStack } from './support/stack-hooks';

jest.setTimeout(60_000);

describe('Answers while the HTTP edge shuts down', () => {
  // Its own stack: the test stops it.
  const ctx = useStack({ own: true });

  it('finishes the request in flight and answers a request that arrives after SIGTERM with a 503 problem', async () => {
    const edge = ctx.stack.mode === 'all-in-one' ? 'all-in-one' : 'gateway';
    const auth = `Authorization: Bearer ${ctx.stack.apiKey}\r\n`;
    const body = JSON.stringify(aProject({ name: unique('In flight at shutdown') }));
    const connection = await RawConnection.open(ctx.stack.baseUrl);
    // A request in flight (its body half sent) keeps the connection busy, so closing the server does not drop it.
    await connection.write(`POST /api/v1/projects HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    await sleep(200);
    const exited = ctx.stack.killApp(edge, 'SIGTERM');
    await sleep(500);
    // The rest of the body, then a second request pipelined behind it: it reaches a closing server.
    await connection.write(`${body.slice(10)}GET /api/v1/projects HTTP/1.1\r\nHost: x\r\n${auth}X-Request-Id: after-sigterm\r\n\r\n`);

    const [inFlight, late] = await connection.responses(2);
    expect(inFlight.status).toBe(201);
    expect({ status: late.status, code: problemIn(late)?.code }).toEqual({ status: 503, code: 'unavailable' });
    expect(late.headers['content-type']).toMatch(/^application\/problem\+json\b/);
    expect(late.headers['retry-after']).toBe('2');
    expect(late.headers['x-request-id']).toBe('after-sigterm');
    expect(problemIn(late)?.requestId).toBe('after-sigterm');
    connection.close();
    expect((await exited).code).toBe(0);
  });
});
