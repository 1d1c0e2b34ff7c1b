import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { OtlpAnswer, otlpHeaders, postOtlp } from './support/otlp';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { TRACE_TEST_TIMEOUT_MS, readEventually } from './support/traces';

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
