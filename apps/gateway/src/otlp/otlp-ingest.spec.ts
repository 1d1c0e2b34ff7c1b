import type { BusClient, StreamPublisher, StreamRecord } from '@cinetrace/bus';
import { DomainError, ErrorCode, ProjectContext, TraceIngestMessage } from '@cinetrace/contracts';
import { GatewayEnv } from '../gateway.env';
import { TraceIngestor } from '../traces/trace-ingestor';
import { OtlpIngest } from './otlp-ingest';

const TRACE = 'ab'.repeat(16);
const ctx = { orgId: 'org_1', projectId: 'prj_1' } as ProjectContext;

const span = (spanId: string, name: string, parentSpanId = '') => ({
  traceId: TRACE,
  spanId,
  parentSpanId,
  name,
  startTimeUnixNano: '1780000000000000000',
  endTimeUnixNano: '1780000001000000000',
});
const body = (...spans: object[]) => ({ encoding: 'json' as const, bytes: Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] })) });

/** OtlpIngest over the real TraceIngestor (validation included), publishing into an array; no span is stored. */
function setup(publish: (records: StreamRecord<TraceIngestMessage>[]) => Promise<void> = async () => undefined) {
  const published: StreamRecord<TraceIngestMessage>[] = [];
  const streams = { publish: async (_topic: string, records: StreamRecord<TraceIngestMessage>[]) => (await publish(records), published.push(...records)) };
  const bus = { request: async () => ({}) };
  const ingestor = new TraceIngestor(streams as unknown as StreamPublisher, bus as unknown as BusClient);
  return { otlp: new OtlpIngest(ingestor, Object.assign(new GatewayEnv(), { MAX_JSON_DEPTH: 64 })), published };
}

describe('OtlpIngest', () => {
  it('publishes the valid spans keyed by project and trace, and counts the refused ones', async () => {
    const { otlp, published } = setup();
    const partial = await otlp.export(ctx, body(span('1'.repeat(16), 'root'), span('2'.repeat(16), 'x'.repeat(257), '1'.repeat(16))));
    expect(partial).toEqual({ rejectedSpans: 1, errorMessage: expect.stringMatching(/^1 span\(s\) rejected: span 2{16}: name /) });
    expect(published).toHaveLength(1);
    expect(published[0].key).toBe(`prj_1/${TRACE}`);
    expect(published[0].value.trace).toMatchObject({ id: TRACE, name: 'root', status: 'ok', spans: [{ id: '1'.repeat(16) }] });
  });

  it('takes the trace fields from a root span only while that root is kept', async () => {
    const { otlp, published } = setup();
    const partial = await otlp.export(ctx, body(span('1'.repeat(16), 'r'.repeat(257)), span('2'.repeat(16), 'child', '1'.repeat(16))));
    expect(partial.rejectedSpans).toBe(1);
    const trace = published[0].value.trace;
    expect(trace.spans.map((s) => s.id)).toEqual(['2'.repeat(16)]);
    expect(trace.name).toBeUndefined();
    expect(trace.endTime).toBeUndefined();
  });

  it('refuses an undecodable body as a whole (400), and lets backpressure through (503: the exporter retries)', async () => {
    await expect(setup().otlp.export(ctx, { encoding: 'protobuf', bytes: Buffer.from([0xff, 0xff, 0xff]) })).rejects.toMatchObject({ code: ErrorCode.MalformedRequest });
    await expect(setup().otlp.export(ctx, { encoding: 'json', bytes: Buffer.from('{"resourceSpans":') })).rejects.toMatchObject({ code: ErrorCode.InvalidJson });
    const lagging = setup(async () => {
      throw new DomainError(ErrorCode.Unavailable, 'behind', undefined, 2);
    });
    await expect(lagging.otlp.export(ctx, body(span('1'.repeat(16), 'root')))).rejects.toMatchObject({ code: ErrorCode.Unavailable, retryAfter: 2 });
  });

  it('answers an empty export without publishing', async () => {
    const { otlp, published } = setup();
    expect(await otlp.export(ctx, { encoding: 'protobuf', bytes: Buffer.alloc(0) })).toEqual({ rejectedSpans: 0, errorMessage: '' });
    expect(published).toEqual([]);
  });
});
