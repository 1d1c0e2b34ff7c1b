import { expect } from '@jest/globals';
import type { StreamRecord } from '@cinetrace/bus';
import type { TraceIngestMessage } from '@cinetrace/contracts';
import { OTLP_TRACE_DESCRIPTOR } from '@cinetrace/traces';
import * as protobuf from 'protobufjs';
import type { TraceMediaRelay } from '../media/trace-media-relay';
import type { TraceWriter } from '../store/trace-writer';
import { TraceIngestHandler } from './trace-ingest.handler';

const ExportRequest = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR).lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');
const TRACE = 'ab'.repeat(16);
const prompt = JSON.stringify({ prompt: 'a lighthouse at dusk, slow dolly-in, 35mm film grain', seed: 7 });

const exportBytes = (traceId = TRACE) =>
  Buffer.from(
    ExportRequest.encode(
      ExportRequest.fromObject({
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: Buffer.from(traceId, 'hex'),
                    spanId: Buffer.from('1'.repeat(16), 'hex'),
                    name: 'generate',
                    startTimeUnixNano: '1780000000000000000',
                    endTimeUnixNano: '1780000001000000000',
                    attributes: [{ key: 'input.value', value: { stringValue: prompt } }],
                  },
                ],
              },
            ],
          },
        ],
      }),
    ).finish(),
  );

/** The handler over a writer that keeps what it is given to store. */
function setup() {
  const stored: TraceIngestMessage[] = [];
  const writer = { store: async (messages: TraceIngestMessage[]) => (stored.push(...messages), false) };
  const media = { wake: () => undefined };
  return { handler: new TraceIngestHandler(writer as unknown as TraceWriter, media as unknown as TraceMediaRelay), stored };
}

const exportRecord = (bytes?: Uint8Array): StreamRecord<TraceIngestMessage> => ({
  key: `prj_1/${TRACE}`,
  value: { ingestId: 'ing_1', projectId: 'prj_1', receivedAt: Date.now(), trace: { id: TRACE, spans: [] }, otlp: 'protobuf', receipt: false },
  ...(bytes ? { bytes } : {}),
});

describe('TraceIngestHandler', () => {
  it('stores an OTLP export that crossed as its bytes as the trace those bytes map to', async () => {
    const { handler, stored } = setup();
    await handler.handle([exportRecord(exportBytes())]);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ ingestId: 'ing_1', projectId: 'prj_1', receipt: false, trace: { id: TRACE, name: 'generate' } });
    expect(stored[0].trace.spans).toMatchObject([{ id: '1'.repeat(16), input: JSON.parse(prompt) as unknown, attributes: { 'input.value': prompt } }]);
    // Mapped again here as the gateway did: the root span's input is the trace's.
    expect(stored[0].trace.input).toEqual(JSON.parse(prompt));
  });

  it('puts back the span and trace fields a record left out, and refuses a copy of another kind', async () => {
    const { handler, stored } = setup();
    const trace = { id: TRACE, spans: [{ id: '1'.repeat(16), parentId: null, name: 'generate', startTime: 1, attributes: { 'input.value': prompt } }] };
    const record = (copies: unknown[]): StreamRecord<TraceIngestMessage> => ({
      key: `prj_1/${TRACE}`,
      value: { ingestId: 'ing_2', projectId: 'prj_1', receivedAt: Date.now(), trace: structuredClone(trace), payloadCopies: copies as TraceIngestMessage['payloadCopies'] },
    });
    await handler.handle([
      record([
        ['1'.repeat(16), 'input', 'input.value', 'json'],
        ['1'.repeat(16), 'input', 'input.value', 'json', 'trace'],
      ]),
    ]);
    expect(stored[0].trace.spans[0].input).toEqual(JSON.parse(prompt));
    expect(stored[0].trace.input).toEqual(JSON.parse(prompt));
    await expect(handler.handle([record([['1'.repeat(16), 'input', 'input.value', 'json', 'span']])])).rejects.toThrow(/is not a trace ingest message/);
  });

  it('refuses an export record without its bytes, or whose bytes hold another trace (set aside, nothing stored)', async () => {
    const { handler, stored } = setup();
    await expect(handler.handle([exportRecord()])).rejects.toThrow(/names an OTLP export it does not carry/);
    await expect(handler.handle([exportRecord(exportBytes('cd'.repeat(16)))])).rejects.toThrow(/does not hold that one trace/);
    expect(stored).toEqual([]);
  });
  it("takes the scores a task's trace carries, and sets aside a record whose scores are not of their shape", async () => {
    const { handler, stored } = setup();
    const score = {
      id: 'task_1.score.0',
      spanId: null,
      name: 'exact_match',
      value: 1,
      stringValue: null,
      dataType: 'numeric',
      source: 'benchmark',
      comment: null,
      evaluatorId: null,
      createdAt: 1,
    };
    const withScores = (scores: unknown[]): StreamRecord<TraceIngestMessage> => ({
      key: 'prj_1/tr_1',
      value: { ingestId: 'ing_s', projectId: 'prj_1', receivedAt: 1, trace: { id: 'tr_1', spans: [] }, receipt: false, scores: scores as TraceIngestMessage['scores'] },
    });
    await handler.handle([withScores([score])]);
    expect(stored[0].scores).toEqual([score]);
    for (const bad of [{ ...score, value: '1' }, { ...score, dataType: 'rank' }, { ...score, source: 'robot' }, { ...score, createdAt: Number.NaN }, null]) {
      await expect(handler.handle([withScores([bad])])).rejects.toThrow(/is not a trace ingest message/);
    }
    expect(stored).toHaveLength(1);
  });
});
