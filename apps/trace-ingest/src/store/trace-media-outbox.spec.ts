import { expect } from '@jest/globals';
import type { ProjectContext, TraceIngestMessage, TraceInput, TraceMediaAttachment, TraceView } from '@cinetrace/contracts';
import { openTestStore, TEST_STORES, type TestStore } from '@cinetrace/testing';
import { TraceReadsService } from '../reads/trace-reads.service';
import { traceIngestStore } from '../trace-ingest.module';
import { deleteQueuedMedia, oldestQueuedMedia } from './trace-media-outbox';
import { TraceWriter } from './trace-writer';

const ctx: ProjectContext = { orgId: 'org_1', apiKeyId: 'key_1', requestId: 'req_1', projectId: 'prj_media' };
const T0 = Date.UTC(2030, 0, 1);
const CLIP = 'https://cdn.example/renders/shot-1.mp4?sig=abc';
let ingestSeq = 0;

const message = (trace: TraceInput, media?: TraceMediaAttachment[]): TraceIngestMessage => ({
  ingestId: `ing_media_${++ingestSeq}`,
  projectId: ctx.projectId,
  receivedAt: T0,
  trace,
  ...(media ? { media } : {}),
});

// The write side of media in outputs: what a store queues for copying, and media-service's attachments applied in order.
describe.each(TEST_STORES)('TraceWriter and media in outputs on %s', (kind) => {
  let store: TestStore;
  let writer: TraceWriter;
  let reads: TraceReadsService;
  const getTrace = async (id: string) => (await reads.get({ ctx, id })).value<TraceView>();
  const queued = () => oldestQueuedMedia(store.dataSource.manager, 100);

  beforeAll(async () => {
    store = await openTestStore(kind, traceIngestStore);
    writer = new TraceWriter(store.dataSource);
    reads = new TraceReadsService(store.dataSource);
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  beforeEach(async () => {
    await deleteQueuedMedia(store.dataSource.manager, await queued());
  });

  it('queues nothing for traces whose outputs name no media', async () => {
    const count = await writer.store([
      message({ id: 'plain', output: { caption: 'a fox' }, spans: [{ id: 's', name: 's', startTime: T0, output: 'text', usage: { videoSeconds: 4 } }] }),
    ]);
    expect(count).toBe(0);
    expect(await queued()).toEqual([]);
  });

  it("queues each media reference of the outputs it writes, the trace's own and its spans', in the store's transaction", async () => {
    const video = { url: CLIP, contentType: 'video/mp4' };
    const count = await writer.store([
      message({
        id: 'with-media',
        output: [video],
        spans: [
          { id: 'render', name: 'render', startTime: T0, output: video },
          { id: 'plan', name: 'plan', startTime: T0, output: 'shots' },
        ],
      }),
    ]);
    expect(count).toBe(2);
    const waiting = await queued();
    expect(waiting.map(({ spanId, url, contentType }) => ({ spanId, url, contentType })).sort((a, b) => String(a.spanId).localeCompare(String(b.spanId)))).toEqual([
      { spanId: null, url: CLIP, contentType: 'video/mp4' },
      { spanId: 'render', url: CLIP, contentType: 'video/mp4' },
    ]);
    expect(waiting.every((r) => r.projectId === ctx.projectId && r.traceId === 'with-media')).toBe(true);
  });

  it("applies media-service's attachment to the trace as stored: mediaId beside the url, the probed seconds in usage, nothing queued again", async () => {
    const video = { url: CLIP, contentType: 'video/mp4' };
    await writer.store([message({ id: 'attach', spans: [{ id: 'render', name: 'render', startTime: T0, output: video, usage: { videoSeconds: 8 } }] })]);
    await deleteQueuedMedia(store.dataSource.manager, await queued());

    const count = await writer.store([message({ id: 'attach', spans: [] }, [{ spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 }])]);
    expect(count).toBe(0);
    const trace = await getTrace('attach');
    expect(trace.spans[0].output).toEqual({ ...video, mediaId: 'med_1' });
    expect(trace.spans[0].usage).toEqual({ videoSeconds: 2 });
    expect(trace.usage).toEqual({ videoSeconds: 2 });

    // The client sends its span again, as it knows it: the url without mediaId is queued again (media-service gives the mediaId back).
    expect(await writer.store([message({ id: 'attach', spans: [{ id: 'render', name: 'render', startTime: T0, output: video }] })])).toBe(1);
  });

  it('makes no trace of an attachment for a trace it does not hold', async () => {
    await writer.store([message({ id: 'never-stored', spans: [] }, [{ spanId: null, media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: null }])]);
    await expect(reads.get({ ctx, id: 'never-stored' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
