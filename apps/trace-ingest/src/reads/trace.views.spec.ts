import type { StoredTrace } from '@cinetrace/traces';
import { toTimeline } from '@cinetrace/traces';
import { spanTextFromRow, spanToRow, SPAN_TABLE, TRACE_TABLE, traceFromRow, traceToRow } from '../store/trace-rows';
import { summaryViewJson, toSummaryView, traceViewJson } from './trace.views';

const T0 = Date.UTC(2026, 10, 26, 8, 0, 0);

const trace: StoredTrace = {
  projectId: 'proj_1',
  id: 'tr_1',
  name: 'render',
  status: 'error',
  statusExplicit: true,
  startTime: T0,
  startExplicit: true,
  endTime: T0 + 4000,
  input: null,
  output: null,
  metadata: { team: 'video' },
  tags: ['nightly'],
  userId: 'u1',
  sessionId: null,
  spanCount: 2,
  errorCount: 1,
  usage: { videoSeconds: 4 },
  costUsd: 0.5,
  costSpans: 1,
  spanBytes: 100,
  dropped: null,
  createdAt: T0 + 5000,
  updatedAt: T0 + 6000,
};

/** A span's row as the store hands it back: the columns named, JSON columns as stored text. */
function storedRow(span: Parameters<typeof spanToRow>[2]): Record<string, unknown> {
  const values = spanToRow(trace.projectId, trace.id, span);
  return Object.fromEntries(SPAN_TABLE.columns.map(([column], i) => [column, values[i]]));
}

describe('traceViewJson', () => {
  it('writes the TraceView of the stored trace and spans, JSON columns as they were given', () => {
    const root = storedRow({
      id: 'root',
      parentId: null,
      name: 'pipeline',
      kind: 'agent',
      status: 'ok',
      statusMessage: null,
      startTime: T0,
      endTime: T0 + 4000,
      model: null,
      input: { prompt: 'a kite, "slow" pan \u2028' },
      output: [1, 'two', null],
      usage: null,
      costUsd: null,
      costSource: null,
      attributes: { 'gen_ai.request.model': 'v-xl', nested: { deep: [true] } },
      events: null,
    });
    const child = storedRow({
      id: 'gen',
      parentId: 'root',
      name: 'generate',
      kind: 'generation',
      status: 'error',
      statusMessage: 'timed out',
      startTime: T0 + 100,
      endTime: null,
      model: 'video-xl',
      input: 'plain text',
      output: null,
      usage: { inputTokens: 12, videoSeconds: 4 },
      costUsd: 0.5,
      costSource: 'computed',
      attributes: null,
      events: [{ name: 'retry', time: T0 + 200, attributes: { attempt: 2 } }],
    });
    const text = traceViewJson(trace, { input: JSON.stringify({ prompt: 'p' }), output: null }, toTimeline([child, root].map(spanTextFromRow)));

    expect(JSON.parse(text)).toEqual({
      id: 'tr_1',
      projectId: 'proj_1',
      name: 'render',
      status: 'error',
      startTime: '2026-11-26T08:00:00.000Z',
      endTime: '2026-11-26T08:00:04.000Z',
      durationMs: 4000,
      spanCount: 2,
      errorCount: 1,
      tags: ['nightly'],
      metadata: { team: 'video' },
      userId: 'u1',
      sessionId: null,
      usage: { videoSeconds: 4 },
      costUsd: 0.5,
      dropped: null,
      createdAt: '2026-11-26T08:00:05.000Z',
      updatedAt: '2026-11-26T08:00:06.000Z',
      scores: [],
      input: { prompt: 'p' },
      output: null,
      spans: [
        {
          id: 'root',
          parentId: null,
          name: 'pipeline',
          kind: 'agent',
          status: 'ok',
          statusMessage: null,
          startTime: '2026-11-26T08:00:00.000Z',
          endTime: '2026-11-26T08:00:04.000Z',
          durationMs: 4000,
          depth: 0,
          model: null,
          input: { prompt: 'a kite, "slow" pan \u2028' },
          output: [1, 'two', null],
          usage: null,
          costUsd: null,
          costSource: null,
          attributes: { 'gen_ai.request.model': 'v-xl', nested: { deep: [true] } },
          events: null,
        },
        {
          id: 'gen',
          parentId: 'root',
          name: 'generate',
          kind: 'generation',
          status: 'error',
          statusMessage: 'timed out',
          startTime: '2026-11-26T08:00:00.100Z',
          endTime: null,
          durationMs: null,
          depth: 1,
          model: 'video-xl',
          input: 'plain text',
          output: null,
          usage: { inputTokens: 12, videoSeconds: 4 },
          costUsd: 0.5,
          costSource: 'computed',
          attributes: null,
          events: [{ name: 'retry', time: '2026-11-26T08:00:00.200Z', attributes: { attempt: 2 } }],
        },
      ],
    });
  });

  it('answers a trace without spans with an empty list', () => {
    expect((JSON.parse(traceViewJson(trace, { input: null, output: null }, [])) as { spans: unknown }).spans).toEqual([]);
  });
});

describe('summaryViewJson', () => {
  /** The trace's row as the store hands it back (PostgreSQL answers int8 columns as text). */
  function traceRow(t: StoredTrace, int8AsText = false): Record<string, unknown> {
    const values = traceToRow(t);
    return Object.fromEntries(TRACE_TABLE.columns.map(([column, type], i) => [column, int8AsText && type === 'int8' && values[i] !== null ? String(values[i]) : values[i]]));
  }

  const cases: Array<[string, StoredTrace, boolean]> = [
    ['a finished trace with metadata, tags, usage and cost', trace, false],
    ['the same as PostgreSQL answers it', trace, true],
    [
      'a running trace without name, cost or user, with parts dropped and awkward metadata',
      {
        ...trace,
        name: null,
        status: 'running',
        endTime: null,
        userId: null,
        costUsd: null,
        usage: {},
        tags: [],
        metadata: { '2': 'n', z: '"q" \u2028', nested: { a: [1.5e-7, -0] } },
        dropped: { spanIds: ['s9'], tags: [], metadataKeys: [] },
      },
      true,
    ],
  ];
  it.each(cases)('writes toSummaryView of %s', (_name, t, int8AsText) => {
    const row = traceRow(t, int8AsText);
    const text = summaryViewJson(row, { quality: 0.5, verdict: 'good' });
    expect(text).toBe(JSON.stringify({ ...toSummaryView(traceFromRow(row, false)), scores: { quality: 0.5, verdict: 'good' } }));
    expect(JSON.parse(text)).toMatchObject({ id: t.id, startTime: new Date(t.startTime).toISOString(), metadata: JSON.parse(JSON.stringify(t.metadata)) as unknown });
  });
});
