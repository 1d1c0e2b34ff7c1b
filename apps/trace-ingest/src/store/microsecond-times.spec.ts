import { expect } from '@jest/globals';
import type { ProjectContext, TraceIngestMessage, TraceInput, TraceView } from '@cinetrace/contracts';
import { toEpochMs } from '@cinetrace/traces';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { listTraces } from '../reads/trace-list.fixtures';
import { TraceReadsService } from '../reads/trace-reads.service';
import { traceIngestStore } from '../trace-ingest.module';
import { TraceWriter } from './trace-writer';

const ctx: ProjectContext = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId: 'proj_micros' };
let seq = 0;
const message = (trace: TraceInput): TraceIngestMessage => ({ ingestId: `ing_micros_${++seq}`, projectId: ctx.projectId, receivedAt: Date.UTC(2030, 0, 1), trace });
/** A time as the JSON route reads it (validateTrace: toEpochMs). */
const time = (iso: string) => toEpochMs(iso)!;

describe.each(TEST_STORES)('times to the microsecond on %s', (kind) => {
  let store: TestStore;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  const getTrace = async (id: string) => (await reads.get({ ctx, id })).value<TraceView>();
  const list = async (filters: { from?: string; to?: string }) =>
    (await listTraces(reads, { ctx, filters, page: { limit: 200 } })).items.filter((t) => t.id.startsWith('tr_us_')).map((t) => t.id);

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
    await writer.store([
      message({
        id: 'tr_us_a',
        endTime: time('2030-01-01T10:00:00.001750Z'),
        spans: [
          // Sub-millisecond spans: they read 0 ms when times were whole milliseconds.
          { id: 'late', name: 'late', startTime: time('2030-01-01T10:00:00.000900Z'), endTime: time('2030-01-01T10:00:00.001750Z') },
          { id: 'early', name: 'early', startTime: time('2030-01-01T10:00:00.000100Z'), endTime: time('2030-01-01T10:00:00.000350Z') },
        ],
      }),
      message({ id: 'tr_us_b', startTime: time('2030-01-01T10:00:00.000600Z'), spans: [] }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it('answers span and trace durations with their microseconds, and orders spans by them', async () => {
    const trace = await getTrace('tr_us_a');
    expect(trace.spans.map((s) => [s.id, s.durationMs])).toEqual([
      ['early', 0.25],
      ['late', 0.85],
    ]);
    // The trace starts with its earliest span (…000100) and ends at …001750.
    expect(trace.durationMs).toBe(1.65);
    // ISO times keep the API's millisecond form.
    expect(trace.spans[0]).toMatchObject({ startTime: '2030-01-01T10:00:00.000Z', endTime: '2030-01-01T10:00:00.000Z' });
    expect(trace.endTime).toBe('2030-01-01T10:00:00.001Z');
    const [listed] = (await listTraces(reads, { ctx, filters: {}, page: { limit: 200 } })).items.filter((t) => t.id === 'tr_us_a');
    expect(listed.durationMs).toBe(1.65);
  });

  it('keeps the microseconds through a merge of the trace sent again', async () => {
    await writer.store([message({ id: 'tr_us_a', spans: [{ id: 'early', name: 'early again' }] })]);
    const trace = await getTrace('tr_us_a');
    expect(trace.spans.find((s) => s.id === 'early')).toMatchObject({ name: 'early again', durationMs: 0.25 });
    expect(trace.durationMs).toBe(1.65);
  });

  it('filters from and to on the microsecond within one millisecond', async () => {
    // Both traces start in the millisecond …000: tr_us_a at …000100, tr_us_b at …000600.
    expect(await list({ from: '2030-01-01T10:00:00.000Z' })).toEqual(['tr_us_b', 'tr_us_a']);
    expect(await list({ from: '2030-01-01T10:00:00.000500Z' })).toEqual(['tr_us_b']);
    expect(await list({ to: '2030-01-01T10:00:00.000600Z' })).toEqual(['tr_us_a']);
    expect(await list({ from: '2030-01-01T10:00:00.000100Z', to: '2030-01-01T10:00:00.000601Z' })).toEqual(['tr_us_b', 'tr_us_a']);
    expect(await list({ to: '2030-01-01T10:00:00.000Z' })).toEqual([]);
  });
});
