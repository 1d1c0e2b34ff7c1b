import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { OtlpAnswer, otlpHeaders, postOtlp } from './support/otlp';
import { inNewProject } from './support/prompts';
import { RawConnection } from './support/raw-http';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, eventually, readEventually } from './support/traces';

jest.setTimeout(TRACE_TEST_TIMEOUT_MS);

const JSON_TYPE = 'application/json';
/** Exports A keeps in flight at once: more than the one decoding thread's whole queue (16) holds. */
const FLOOD_IN_FLIGHT = 24;
const B_EXPORTS = 8;

/** A large export (~700 KiB, decoded on a thread) of spans none of which can be read: every one is refused. */
function floodExport(): string {
  const spans = Array.from({ length: 3_000 }, (_, i) => ({
    traceId: 'not-hex',
    spanId: 'zz',
    name: `junk-${i}`,
    attributes: [{ key: 'pad', value: { stringValue: 'x'.repeat(150) } }],
  }));
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

/** A valid export of one new trace, past the size decoded on the event loop (256 KiB): it takes the pool too. */
function largeValidExport(): { traceId: string; body: string } {
  const traceId = randomBytes(16).toString('hex');
  const spans = Array.from({ length: 6 }, (_, i) => ({
    traceId,
    spanId: randomBytes(8).toString('hex'),
    name: `frame-${i}`,
    startTimeUnixNano: '1780000000000000000',
    endTimeUnixNano: '1780000001000000000',
    attributes: [{ key: 'note', value: { stringValue: 'n'.repeat(50_000) } }],
  }));
  return { traceId, body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] }) };
}

describe('OTLP decoding shared fairly between projects', () => {
  // One decoding thread, as on a two-core machine: the flood has the whole pool to fill.
  const ctx = useStack({ env: { OTLP_DECODE_THREADS: '1' } });

  it("takes project B's large exports while project A floods the decoding pool, and refuses only A (429 with Retry-After)", async () => {
    const a = await inNewProject(ctx.api);
    const b = await inNewProject(ctx.api);
    const flood = floodExport();
    const aHeaders = otlpHeaders(ctx.stack.apiKey, a.key, JSON_TYPE);
    const bHeaders = otlpHeaders(ctx.stack.apiKey, b.key, JSON_TYPE);

    let flooding = true;
    const aAnswers: OtlpAnswer[] = [];
    const flooder = async () => {
      while (flooding) aAnswers.push(await postOtlp(ctx.stack, flood, aHeaders));
    };
    const flooders = Array.from({ length: FLOOD_IN_FLIGHT }, flooder);
    try {
      // The flood is under way: A has been refused its share at least once.
      while (!aAnswers.some((answer) => answer.status === 429)) {
        if (aAnswers.length > 10 * FLOOD_IN_FLIGHT) throw new Error(`A was never refused: ${[...new Set(aAnswers.map((x) => x.status))].join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const bAnswers: Array<{ status: number; traceId: string }> = [];
      for (let i = 0; i < B_EXPORTS; i++) {
        const { traceId, body } = largeValidExport();
        bAnswers.push({ status: (await postOtlp(ctx.stack, body, bHeaders)).status, traceId });
      }
      expect(bAnswers.map((answer) => answer.status)).toEqual(Array(B_EXPORTS).fill(200));
      for (const { traceId } of bAnswers) expect((await readEventually(b.api, traceId)).spans).toHaveLength(6);
    } finally {
      flooding = false;
      await Promise.all(flooders);
    }
    // A's refusals say when to come back, in OTLP's terms; what A had decoded was answered as usual.
    const refused = aAnswers.find((answer) => answer.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.json).toEqual({ code: 8, message: expect.stringMatching(/project/) });
    expect(new Set(aAnswers.map((answer) => answer.status))).toEqual(new Set([200, 429]));
  });
});

/** A small valid export of one new trace (decoded on the event loop). */
function smallExport(): { traceId: string; body: string } {
  const traceId = randomBytes(16).toString('hex');
  const span = { traceId, spanId: randomBytes(8).toString('hex'), name: 'shot', startTimeUnixNano: '1780000000000000000', endTimeUnixNano: '1780000001000000000' };
  return { traceId, body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] }) };
}

describe('OTLP exports one project may have in flight (OTLP_PROJECT_EXPORTS 2)', () => {
  const ctx = useStack({ env: { OTLP_PROJECT_EXPORTS: '2' } });

  it("refuses a project's export past them unread (429 with Retry-After), whatever its size, while another project's goes on", async () => {
    const a = await inNewProject(ctx.api);
    const b = await inNewProject(ctx.api);
    const aHeaders = otlpHeaders(ctx.stack.apiKey, a.key, JSON_TYPE);

    // A's keys known to the gateway first (its auth cache): the held exports below are past the keys at once.
    const first = smallExport();
    expect((await postOtlp(ctx.stack, first.body, aHeaders)).status).toBe(200);

    // Two of A's small exports, their bodies half sent: they hold A's two slots until the rest comes.
    const hold = async (body: string): Promise<RawConnection> => {
      const connection = await RawConnection.open(ctx.stack.baseUrl);
      await connection.write(
        `POST /v1/traces HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.stack.apiKey}\r\nX-Project-Key: ${a.key}\r\n` +
          `Content-Type: ${JSON_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      return connection;
    };
    const held = [smallExport(), smallExport()];
    const slow: RawConnection[] = [];
    for (const { body } of held) slow.push(await hold(body));
    await new Promise((resolve) => setTimeout(resolve, 100)); // the gateway reads what was sent

    // Once the gateway holds both, A's next export, small as it is, is refused (before: taken).
    const refused = await eventually(
      "A's third export refused",
      async () => {
        // A held export the gateway reached only after one of these tries had taken a slot was
        // itself refused (its bytes were sent, not yet read): hold a new one in its place, and
        // try after the next pause, once the gateway has read it.
        const refusedHeld = [...slow.entries()].filter(([, connection]) => connection.receivedSize > 0);
        for (const [i, connection] of refusedHeld) {
          connection.close();
          held[i] = smallExport();
          slow[i] = await hold(held[i].body);
        }
        if (refusedHeld.length) throw new Error('a held export was refused; held another');
        const answer = await postOtlp(ctx.stack, smallExport().body, aHeaders);
        if (answer.status !== 429) throw new Error(`answered ${answer.status}; the held exports have ${slow.map((c) => c.receivedSize).join(' and ')} bytes back`);
        return answer;
      },
      10_000,
      100,
    );
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.json).toEqual({ code: 8, message: expect.stringMatching(/OTLP_PROJECT_EXPORTS/) });

    // Another project's export is taken meanwhile.
    const bExport = smallExport();
    expect((await postOtlp(ctx.stack, bExport.body, otlpHeaders(ctx.stack.apiKey, b.key, JSON_TYPE))).status).toBe(200);

    // A's held exports complete and are stored (nothing accepted is lost); then A exports again.
    for (const [i, connection] of slow.entries()) {
      await connection.write(held[i].body.slice(20));
      expect((await connection.response(30_000)).status).toBe(200);
    }
    const again = smallExport();
    expect((await postOtlp(ctx.stack, again.body, aHeaders)).status).toBe(200);
    for (const { traceId } of [first, ...held, again]) expect((await readEventually(a.api, traceId)).spans).toHaveLength(1);
    expect((await readEventually(b.api, bExport.traceId)).spans).toHaveLength(1);
  });
});
