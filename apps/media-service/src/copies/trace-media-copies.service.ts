import {
  DomainError,
  MEDIA_TYPE_PATTERN,
  MEDIA_URL_MAX,
  TRACE_MEDIA_URL_PATTERN,
  type MediaCopiesAcceptedView,
  type MediaCopiesRequest,
  type TraceMediaReference,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction } from '@cinetrace/persistence';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { MediaCopy } from '../store/media-copy.entity';
import { TRACE_OUTPUT, type MediaCopyTarget } from '../store/media-copy-target.entity';
import { findCopiesByUrl, insertCopies } from '../store/media-copies.queries';
import { upsertTargets } from '../store/media-copy-targets.queries';
import { mediaJob, type MediaJobQueue } from '../media/media-jobs';
import { TraceMediaWriteBack } from './trace-media-write-back';

/** Provider token of the copy jobs' queue (a media job queue like the probes', under its own name). */
export const COPY_QUEUE = Symbol('CopyQueue');

const ID_MAX = 128;

/**
 * Takes the media references trace-ingest found in stored outputs: one copy per URL of a
 * project (a URL named again, by any output, is not fetched again), queued once; each output
 * that named it is recorded, to be written back when the copy (and its probe) settles. An
 * output naming a URL already copied gets its write-back now: the client may have replaced
 * the output since, without the `mediaId`.
 */
@Injectable()
export class TraceMediaCopies {
  private readonly logger = new Logger(TraceMediaCopies.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COPY_QUEUE) private readonly queue: MediaJobQueue,
    private readonly writeBack: TraceMediaWriteBack,
  ) {}

  async accept({ projectId, references }: MediaCopiesRequest): Promise<MediaCopiesAcceptedView> {
    checkReferences(references);
    const { created, settled } = await inTransaction(this.dataSource, async (tx) => {
      const copies = new Map((await findCopiesByUrl(tx, projectId, [...new Set(references.map((r) => r.url))])).map((c) => [c.url, c]));
      const created: MediaCopy[] = [];
      const now = Date.now();
      for (const { url, contentType } of references) {
        if (copies.has(url)) continue;
        const copy: MediaCopy = { id: newId('mcp'), projectId, url, contentType, status: 'pending', mediaId: null, error: null, createdAt: now, updatedAt: now };
        copies.set(url, copy);
        created.push(copy);
      }
      if (created.length) await insertCopies(tx, created);
      const targets: MediaCopyTarget[] = references.map((r) => ({
        copyId: copies.get(r.url)!.id,
        projectId,
        traceId: r.traceId,
        spanId: r.spanId ?? TRACE_OUTPUT,
        written: 'none',
      }));
      await upsertTargets(tx, targets);
      const byId = new Map([...copies.values()].map((c) => [c.id, c]));
      return { created, settled: targets.filter((t) => byId.get(t.copyId)!.status !== 'pending') };
    });
    // Accepted either way: a copy that cannot be queued now is queued by the sweep, a write-back not published now is published by it.
    if (created.length) await this.queue.enqueue(created.map(mediaJob)).catch((err: Error) => this.logger.warn(`Copies not queued yet (the sweep will): ${err.message}`));
    if (settled.length) await this.writeBack.forTargets(settled).catch((err: Error) => this.logger.warn(`Media not written back yet (the sweep will): ${err.message}`));
    return { accepted: references.length };
  }
}

/** The bus payload is checked where it is consumed, as the gateway's input is where it arrives. */
function checkReferences(references: unknown): asserts references is TraceMediaReference[] {
  if (!Array.isArray(references)) throw DomainError.validation([{ path: 'references', message: 'must be an array' }]);
  const errors = references.flatMap((r: TraceMediaReference, i) => {
    const problems: { path: string; message: string }[] = [];
    if (typeof r?.traceId !== 'string' || !r.traceId || r.traceId.length > ID_MAX) problems.push({ path: `references[${i}].traceId`, message: 'must be a trace id' });
    if (r?.spanId !== null && (typeof r?.spanId !== 'string' || !r.spanId || r.spanId.length > ID_MAX))
      problems.push({ path: `references[${i}].spanId`, message: 'must be a span id or null' });
    if (typeof r?.url !== 'string' || r.url.length > MEDIA_URL_MAX || !TRACE_MEDIA_URL_PATTERN.test(r.url))
      problems.push({ path: `references[${i}].url`, message: 'must be an http(s) URL' });
    if (typeof r?.contentType !== 'string' || !MEDIA_TYPE_PATTERN.test(r.contentType))
      problems.push({ path: `references[${i}].contentType`, message: 'must be a video, image or audio type' });
    return problems;
  });
  if (errors.length) throw DomainError.validation(errors);
}
