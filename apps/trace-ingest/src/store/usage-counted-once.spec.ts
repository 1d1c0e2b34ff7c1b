import { expect } from '@jest/globals';
import type { ProjectContext, SpanInput, TraceIngestMessage, TraceView } from '@cinetrace/contracts';
import { countWholeTrace, type StoredSpan } from '@cinetrace/traces';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { listTraces } from '../reads/trace-list.fixtures';
import { TraceReadsService } from '../reads/trace-reads.service';
import { countStoredTracesAgain } from '../migrations/1765200000000-CountUsageOnce';
import { traceIngestStore } from '../trace-ingest.module';
import { TraceWriter } from './trace-writer';

const ctx: ProjectContext = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId: 'proj_usage' };
const T0 = Date.UTC(2030, 0, 1);
let seq = 0;

const message = (traceId: string, spans: SpanInput[]): TraceIngestMessage => ({
  ingestId: `ing_usage_${++seq}`,
  projectId: ctx.projectId,
  receivedAt: T0,
  trace: { id: traceId, spans },
});

const span = (id: string, parentId: string | null, over: Partial<SpanInput> = {}): SpanInput => ({ id, parentId, name: id, startTime: T0, ...over });

/** The AI SDK's shape: `invoke_agent` repeats its chat spans' usage; the tool call carries none. */
const AGENT = span('agent', null, { usage: { inputTokens: 22, outputTokens: 10 }, costUsd: 0.0022 });
const CHAT_1 = span('chat1', 'agent', { usage: { inputTokens: 11, outputTokens: 5 }, costUsd: 0.0011 });
const TOOL = span('tool', 'agent', { startTime: T0 + 1 });
const CHAT_2 = span('chat2', 'agent', { usage: { inputTokens: 11, outputTokens: 5 }, costUsd: 0.0011 });

// Each export stored on its own (a new transaction, the trace read back from the store), as trace-ingest stores messages that arrive apart.
describe.each(TEST_STORES)('a trace counts usage once on %s', (kind) => {
  let store: TestStore;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  const getTrace = async (id: string) => (await reads.get({ ctx, id })).value<TraceView>();

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  const orders: Array<[string, SpanInput[][]]> = [
    ['in one export', [[AGENT, CHAT_1, TOOL, CHAT_2]]],
    ['children first, the root in a later export', [[CHAT_1], [TOOL, CHAT_2], [AGENT]]],
    ['the root first, then each child', [[AGENT], [CHAT_1], [TOOL], [CHAT_2]]],
    ['the root between its children', [[CHAT_2], [AGENT], [CHAT_1, TOOL]]],
  ];

  it.each(orders)('an agent over two chat calls reads 22/10 tokens and its cost once: %s', async (order, exports) => {
    const id = `tr_agent_${order.replace(/\W+/g, '_')}`;
    for (const spans of exports) await writer.store([message(id, spans)]);
    const trace = await getTrace(id);
    expect(trace.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
    expect(trace.costUsd).toBeCloseTo(0.0022, 9);
    // Each span still shows its own figures.
    expect(trace.spans.find((s) => s.id === 'agent')).toMatchObject({ usage: { inputTokens: 22, outputTokens: 10 }, costUsd: 0.0022 });
    const [listed] = (await listTraces(reads, { ctx, filters: { name: undefined }, page: { limit: 200 } })).items.filter((t) => t.id === id);
    expect(listed.usage).toEqual({ inputTokens: 22, outputTokens: 10 });
  });

  it('counts the same in one batch of several messages as in separate ones', async () => {
    await writer.store([message('tr_batch', [CHAT_1]), message('tr_batch', [AGENT]), message('tr_batch', [CHAT_2])]);
    expect((await getTrace('tr_batch')).usage).toEqual({ inputTokens: 22, outputTokens: 10 });
  });

  it('follows chains stored across exports: a grandparent linked last, a child moved, a usage replaced', async () => {
    const id = 'tr_chain';
    await writer.store([message(id, [span('chat', 'step', { usage: { inputTokens: 7 } })])]);
    await writer.store([message(id, [span('agent', 'root', { usage: { inputTokens: 7 } }), span('root', null)])]);
    expect((await getTrace(id)).usage).toEqual({ inputTokens: 14 });
    // The step links chat under agent: agent's 7 repeats chat's.
    await writer.store([message(id, [span('step', 'agent')])]);
    expect((await getTrace(id)).usage).toEqual({ inputTokens: 7 });
    // A new chat under the step, then the first chat moved to the root: agent still repeats.
    await writer.store([message(id, [span('chat2', 'step', { usage: { inputTokens: 3 } })])]);
    await writer.store([message(id, [{ id: 'chat', parentId: 'root' }])]);
    expect((await getTrace(id)).usage).toEqual({ inputTokens: 10 });
    // The second chat stops carrying tokens: nothing under the agent does, its own 7 count again.
    await writer.store([message(id, [{ id: 'chat2', usage: {} }])]);
    const trace = await getTrace(id);
    expect(trace.usage).toEqual({ inputTokens: 14 });
    expect(trace.usage).toEqual(countWholeTrace(trace.spans as unknown as StoredSpan[]).usage);
  });

  it('agrees with the rule on a deep tree sent in shuffled pieces, then partly moved and emptied', async () => {
    const id = 'tr_deep';
    let seed = 11;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    // Mostly a long chain (an agent loop), with branches; usage on most spans, keys varying.
    const spans = Array.from({ length: 300 }, (_, i) => {
      const parentId = i === 0 ? null : random() < 0.8 ? `d${i - 1}` : `d${Math.floor(random() * i)}`;
      const usage: Record<string, number> = {};
      for (const key of ['inputTokens', 'outputTokens', 'images']) if (random() < 0.5) usage[key] = 1 + Math.floor(random() * 9);
      return span(`d${i}`, parentId, { usage, costUsd: random() < 0.3 ? 0.001 : undefined });
    });
    const order = [...spans].sort(() => random() - 0.5);
    while (order.length) await writer.store([message(id, order.splice(0, 1 + Math.floor(random() * 20)))]);
    const expectRule = async () => {
      const trace = await getTrace(id);
      const whole = countWholeTrace(trace.spans as unknown as StoredSpan[]);
      const nonZero = (usage: Record<string, number>) => Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== 0));
      expect(nonZero(trace.usage)).toEqual(nonZero(whole.usage));
      expect(trace.costUsd).toBeCloseTo(whole.costUsd!, 9);
    };
    await expectRule();
    await writer.store([
      message(id, [
        { id: 'd150', parentId: 'd3' },
        { id: 'd40', usage: {} },
        { id: 'd299', usage: { videoSeconds: 2 } },
      ]),
    ]);
    await expectRule();
  });

  it('counts a trace stored before the rule again from its spans (the migration)', async () => {
    const id = 'tr_before_rule';
    await writer.store([message(id, [AGENT, CHAT_1, CHAT_2, span('orphan', 'not-yet', { usage: { images: 2 } })])]);
    // As the trace stood before: every figure summed, no counts, nothing awaiting.
    await store.dataSource.query(`UPDATE traces SET usage = '{"inputTokens":44,"outputTokens":20,"images":2}', cost_usd = 0.0044 WHERE id = '${id}'`);
    await store.dataSource.query(`UPDATE spans SET usage_below = NULL, cost_below = 0 WHERE trace_id = '${id}'`);
    await store.dataSource.query(`DELETE FROM span_usage_awaiting WHERE trace_id = '${id}'`);
    expect((await getTrace(id)).usage).toEqual({ inputTokens: 44, outputTokens: 20, images: 2 });

    await countStoredTracesAgain(store.dataSource.createQueryRunner());
    const trace = await getTrace(id);
    expect(trace.usage).toEqual({ inputTokens: 22, outputTokens: 10, images: 2 });
    expect(trace.costUsd).toBeCloseTo(0.0022, 9);
    // The counts it wrote carry on: the missing parent arrives over another chat.
    await writer.store([message(id, [span('not-yet', 'agent', { usage: { images: 2 } })])]);
    expect((await getTrace(id)).usage).toEqual({ inputTokens: 22, outputTokens: 10, images: 2 });
  });
});
