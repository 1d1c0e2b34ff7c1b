import type { TraceAcceptedView, TraceBatchView, TraceFieldsView, TraceSummaryView, TraceView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';
import { SCORE_EXAMPLE } from '../scores/scores.examples';

// The body as sent (times as RFC 3339 strings): TraceInput is its normalized form, so the
// openapi e2e suite's check against the body's JSON Schema is what keeps this one honest.
const trace = {
  id: EXAMPLE.traceId,
  name: 'render intro',
  status: 'ok',
  startTime: '2025-01-15T10:00:00.000Z',
  endTime: '2025-01-15T10:00:42.000Z',
  input: { prompt: 'a fox at dawn' },
  output: { videoUrl: 'https://cdn.example.com/v/1.mp4' },
  tags: ['intro'],
  spans: [{ id: 'sp_1', name: 'generate', startTime: '2025-01-15T10:00:01.000Z', endTime: '2025-01-15T10:00:40.000Z', model: 'veo-3' }],
};

const summary = {
  id: EXAMPLE.traceId,
  projectId: EXAMPLE.projectId,
  name: 'render intro',
  status: 'ok',
  startTime: trace.startTime,
  endTime: trace.endTime,
  durationMs: 42000,
  spanCount: 1,
  errorCount: 0,
  tags: ['intro'],
  metadata: {},
  userId: null,
  sessionId: null,
  usage: {},
  costUsd: null,
  dropped: null,
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies TraceFieldsView;

const stored = {
  ...summary,
  scores: [SCORE_EXAMPLE],
  input: trace.input,
  output: trace.output,
  spans: [
    {
      id: 'sp_1',
      parentId: null,
      name: 'generate',
      kind: 'span',
      status: 'unset',
      statusMessage: null,
      startTime: '2025-01-15T10:00:01.000Z',
      endTime: '2025-01-15T10:00:40.000Z',
      durationMs: 39000,
      depth: 0,
      model: 'veo-3',
      input: null,
      output: null,
      usage: null,
      costUsd: null,
      costSource: null,
      attributes: null,
      events: null,
    },
  ],
} satisfies TraceView;

// A request example must be valid against its schema, so this batch is all accepted; an item
// that fails validation would be `result: 'rejected'` with its `errors`, the others still stored.
const batch = {
  accepted: 2,
  rejected: 0,
  items: [
    { index: 0, id: 'tr_intro_002', result: 'accepted' },
    { index: 1, id: 'tr_intro_003', result: 'accepted' },
  ],
} satisfies TraceBatchView;

export const TRACE_EXAMPLES: ExampleTable = {
  ingestTrace: { request: trace, response: { id: EXAMPLE.traceId, status: 'ok', spanCount: 1 } satisfies TraceAcceptedView },
  ingestTraceBatch: {
    request: {
      traces: [
        { ...trace, id: 'tr_intro_002' },
        { ...trace, id: 'tr_intro_003' },
      ],
    },
    response: batch,
  },
  listTraces: { response: listPage([{ ...summary, scores: { quality: SCORE_EXAMPLE.value } } satisfies TraceSummaryView], EXAMPLE.cursor) },
  getTrace: { response: stored },
};
