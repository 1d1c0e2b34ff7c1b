import { expect } from '@jest/globals';
import type { BusClient, StreamPublisher, StreamRecord } from '@cinetrace/bus';
import { DomainError, ErrorCode, ProjectContext, TraceIngestMessage } from '@cinetrace/contracts';
import { OTLP_TRACE_DESCRIPTOR, traceOfExportRecord } from '@cinetrace/traces';
import * as protobuf from 'protobufjs';
import { TraceIngestor } from '../traces/trace-ingestor';
import type { OtlpBody } from './otlp-body';
import type { OtlpDecoder } from './otlp-decode-pool';
import { decodeOtlpExport } from './otlp-decoding';
import { OtlpIngest } from './otlp-ingest';
import { ProjectExportsInFlight } from './project-exports-in-flight';

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

const ExportRequest = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
/** The spans (ids in hex, as `span` makes them) as an OTLP/protobuf export request. */
const protobufBody = (...spans: Array<ReturnType<typeof span>>) => {
  const hex = (id: string) => Buffer.from(id, 'hex');
  const raw = spans.map((s) => ({ ...s, traceId: hex(s.traceId), spanId: hex(s.spanId), parentSpanId: hex(s.parentSpanId) }));
  return { encoding: 'protobuf' as const, bytes: Buffer.from(ExportRequest.encode(ExportRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: raw }] }] })).finish()) };
};

/** Decodes on the calling thread: the pool runs the same function on its threads. */
const inlineDecoder: OtlpDecoder = {
  decode: (_projectId: string, b: OtlpBody) => decodeOtlpExport({ ...b, maxJsonDepth: 64 }),
  refusalBeforeReading: () => undefined,
  release: () => undefined,
};

/**
 * OtlpIngest over the real TraceIngestor (validation included), publishing into an array; no
 * span is stored. `storedParents` is what trace-ingest answers about spans outside the export.
 */
function setup(
  publish: (records: StreamRecord<TraceIngestMessage>[]) => Promise<void> = async () => undefined,
  storedParents: Record<string, string | null> = {},
  serializesRecords = true,
  decoder: OtlpDecoder = inlineDecoder,
) {
  const published: StreamRecord<TraceIngestMessage>[] = [];
  const streams = {
    serializesRecords,
    publish: async (_topic: string, records: StreamRecord<TraceIngestMessage>[]) => (await publish(records), published.push(...records)),
  };
  const bus = {
    request: async (_pattern: string, request: { spanIds: string[] }) =>
      Object.fromEntries(request.spanIds.filter((id) => id in storedParents).map((id) => [id, storedParents[id]])),
  };
  const ingestor = new TraceIngestor(streams as unknown as StreamPublisher, bus as unknown as BusClient);
  return { otlp: new OtlpIngest(ingestor, bus as unknown as BusClient, decoder, new ProjectExportsInFlight(16)), published };
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

  it('sends an input that an attribute holds once on a stream that serializes, and the trace as it is on an in-process one', async () => {
    const prompt = 'a lighthouse at dusk, the beam sweeping over a calm sea, 35 mm, slow dolly in';
    const withInput = { ...span('1'.repeat(16), 'generate'), attributes: [{ key: 'input.value', value: { stringValue: prompt } }] };
    const kafka = setup();
    await kafka.otlp.export(ctx, body(withInput));
    const sent = kafka.published[0].value;
    expect(sent.trace.spans[0].input).toBeUndefined();
    expect(sent.trace.spans[0].attributes).toEqual({ 'input.value': prompt });
    // The span is the root: the trace's input is its own, and travels once with it.
    expect(sent.trace.input).toBeUndefined();
    expect(sent.payloadCopies).toEqual([
      ['1'.repeat(16), 'input', 'input.value', 'text'],
      ['1'.repeat(16), 'input', 'input.value', 'text', 'trace'],
    ]);

    const inProcess = setup(undefined, {}, false);
    await inProcess.otlp.export(ctx, body(withInput));
    const handed = inProcess.published[0].value;
    expect(handed.trace.spans[0].input).toBe(prompt);
    expect(handed.trace.input).toBe(prompt);
    expect(handed.trace.spans[0].attributes).toEqual({ 'input.value': prompt });
    expect(handed.payloadCopies).toBeUndefined();
  });

  it('sends an export that is one whole valid trace as its protobuf bytes, and any other as the traces it maps to', async () => {
    const { otlp, published } = setup();
    const whole = protobufBody(span('1'.repeat(16), 'root'), span('2'.repeat(16), 'child', '1'.repeat(16)));
    await otlp.export(ctx, whole);
    expect(published[0]).toMatchObject({ key: `prj_1/${TRACE}`, value: { trace: { id: TRACE, spans: [] }, otlp: 'protobuf', receipt: false } });
    expect(published[0].bytes).toBe(whole.bytes);
    // trace-ingest gets from those bytes the trace the gateway validated.
    expect(traceOfExportRecord(published[0].bytes!, TRACE)).toMatchObject({ id: TRACE, name: 'root', spans: [{ id: '1'.repeat(16) }, { id: '2'.repeat(16) }] });

    // A span refused: the kept ones go as a trace, never as bytes that hold the refused one too.
    await otlp.export(ctx, protobufBody(span('1'.repeat(16), 'root'), span('2'.repeat(16), 'x'.repeat(257), '1'.repeat(16))));
    expect(published[1].bytes).toBeUndefined();
    expect(published[1].value.otlp).toBeUndefined();
    expect(published[1].value.trace.spans.map((s) => s.id)).toEqual(['1'.repeat(16)]);

    // The decoder says which exports its traces are exactly the mapping of.
    expect(await inlineDecoder.decode('prj_1', whole)).toMatchObject({ ok: true, asMapped: true });
    expect(await inlineDecoder.decode('prj_1', protobufBody(span('1'.repeat(16), 'root'), span('2'.repeat(16), 'x'.repeat(257), '1'.repeat(16))))).toMatchObject({
      ok: true,
      asMapped: false,
    });

    // In-process, the trace is handed over as it is.
    const inProcess = setup(undefined, {}, false);
    await inProcess.otlp.export(ctx, whole);
    expect(inProcess.published[0].bytes).toBeUndefined();
    expect(inProcess.published[0].value.trace.spans).toHaveLength(2);
  });

  it("gives a body's memory back once its export is answered, unless the stream took the bytes themselves", async () => {
    const released: OtlpBody[] = [];
    const decoder = { ...inlineDecoder, release: (b: OtlpBody) => void released.push(b) };
    const { otlp } = setup(undefined, {}, true, decoder);
    const whole = protobufBody(span('1'.repeat(16), 'root'));
    await otlp.export(ctx, whole);
    expect(released).toEqual([]); // published as these bytes: the stream's now

    const mapped = body(span('1'.repeat(16), 'root'));
    await otlp.export(ctx, mapped);
    const undecodable = { encoding: 'protobuf' as const, bytes: Buffer.from([0xff, 0xff, 0xff]) };
    await expect(otlp.export(ctx, undecodable)).rejects.toMatchObject({ code: ErrorCode.MalformedRequest });
    expect(released).toEqual([mapped, undecodable]);

    // Refused by the stream after it was handed the bytes: still never given back (the stream may hold them).
    const lagging = setup(
      async () => {
        throw new DomainError(ErrorCode.Unavailable, 'behind', undefined, 2);
      },
      {},
      true,
      decoder,
    );
    await expect(lagging.otlp.export(ctx, whole)).rejects.toMatchObject({ code: ErrorCode.Unavailable });
    expect(released).toHaveLength(2);
  });

  it('refuses an undecodable body as a whole (400), and lets backpressure through (503: the exporter retries)', async () => {
    await expect(setup().otlp.export(ctx, { encoding: 'protobuf', bytes: Buffer.from([0xff, 0xff, 0xff]) })).rejects.toMatchObject({ code: ErrorCode.MalformedRequest });
    await expect(setup().otlp.export(ctx, { encoding: 'json', bytes: Buffer.from('{"resourceSpans":') })).rejects.toMatchObject({ code: ErrorCode.InvalidJson });
    const lagging = setup(async () => {
      throw new DomainError(ErrorCode.Unavailable, 'behind', undefined, 2);
    });
    await expect(lagging.otlp.export(ctx, body(span('1'.repeat(16), 'root')))).rejects.toMatchObject({ code: ErrorCode.Unavailable, retryAfter: 2 });
  });

  it('refuses a span that closes a cycle through the stored spans, and keeps the rest', async () => {
    // Stored: span 3 is a child of span 1. The export makes 1 a child of 3, and sends 2 under 3.
    const { otlp, published } = setup(undefined, { ['3'.repeat(16)]: '1'.repeat(16) });
    const partial = await otlp.export(ctx, body(span('1'.repeat(16), 'loop', '3'.repeat(16)), span('2'.repeat(16), 'leaf', '3'.repeat(16))));
    expect(partial).toEqual({ rejectedSpans: 1, errorMessage: expect.stringMatching(/span 1{16}: parentId makes a cycle of parents/) });
    expect(published[0].value.trace.spans.map((s) => s.id)).toEqual(['2'.repeat(16)]);
  });

  it('lets a parent outside the export through when the store does not hold it (exporters send children first)', async () => {
    const { otlp, published } = setup();
    expect(await otlp.export(ctx, body(span('2'.repeat(16), 'child', '9'.repeat(16))))).toEqual({ rejectedSpans: 0, errorMessage: '' });
    expect(published[0].value.trace.spans).toMatchObject([{ id: '2'.repeat(16), parentId: '9'.repeat(16) }]);
  });

  it('answers an empty export without publishing', async () => {
    const { otlp, published } = setup();
    expect(await otlp.export(ctx, { encoding: 'protobuf', bytes: Buffer.alloc(0) })).toEqual({ rejectedSpans: 0, errorMessage: '' });
    expect(published).toEqual([]);
  });
});
