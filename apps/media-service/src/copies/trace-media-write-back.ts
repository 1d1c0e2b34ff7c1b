import { StreamPublisher } from '@cinetrace/bus';
import { Topics, type TraceIngestMessage, type TraceMediaAttachment } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { MediaCopyTarget, TRACE_OUTPUT, type WriteBackStage } from '../store/media-copy-target.entity';
import { findCopies, findCopiesOfMedia } from '../store/media-copies.queries';
import { findTargetsOfCopies, findTargetsOfOutput, markWritten } from '../store/media-copy-targets.queries';
import { findMediaByIds } from '../store/media.queries';
import { outputWriteBack } from './output-write-back';

/** An output that named copies, and what its targets have written so far. */
interface OutputToWrite {
  projectId: string;
  traceId: string;
  spanId: string;
}

/**
 * Writes what the copies give back into the outputs that named them: `mediaId` once copied,
 * a span's `usage.videoSeconds` once probed. The trace is trace-ingest's, so the write is a
 * record of the trace stream (`TraceIngestMessage.media`), keyed like the client's own
 * writes of that trace and stored in order with them. An output's targets record how far it
 * went; what could not be published is published again by the sweep.
 */
@Injectable()
export class TraceMediaWriteBack {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly traces: StreamPublisher,
  ) {}

  /** The outputs that named these copies (a copy settled). */
  async forCopies(copyIds: string[]): Promise<void> {
    await this.forTargets(await findTargetsOfCopies(this.dataSource.manager, copyIds));
  }

  /** The outputs that named the copies this media holds (its probe settled). */
  async forMedia(mediaId: string): Promise<void> {
    const copies = await findCopiesOfMedia(this.dataSource.manager, mediaId);
    if (copies.length) await this.forCopies(copies.map((c) => c.id));
  }

  /** The outputs of these targets, each with every copy it named; one whose targets already say what it would write is left alone. */
  async forTargets(targets: readonly MediaCopyTarget[]): Promise<void> {
    const outputs = new Map<string, OutputToWrite>();
    for (const { projectId, traceId, spanId } of targets) outputs.set(JSON.stringify([projectId, traceId, spanId]), { projectId, traceId, spanId });
    const byTrace = new Map<string, { projectId: string; traceId: string; attachments: TraceMediaAttachment[] }>();
    const marks: { output: OutputToWrite; copyIds: string[]; stage: WriteBackStage }[] = [];
    for (const output of outputs.values()) {
      const named = await findTargetsOfOutput(this.dataSource.manager, output.projectId, output.traceId, output.spanId);
      const copies = await findCopies(
        this.dataSource.manager,
        named.map((t) => t.copyId),
      );
      const media = await findMediaByIds(
        this.dataSource.manager,
        copies.flatMap((c) => (c.mediaId ? [c.mediaId] : [])),
      );
      const { attachment, stage } = outputWriteBack(output.spanId === TRACE_OUTPUT ? null : output.spanId, copies, new Map(media.map((m) => [m.id, m])));
      if (stage === 'none' || named.every((t) => t.written === stage)) continue;
      marks.push({ output, copyIds: named.map((t) => t.copyId), stage });
      if (!attachment) continue;
      const key = `${output.projectId}/${output.traceId}`;
      const trace = byTrace.get(key) ?? { projectId: output.projectId, traceId: output.traceId, attachments: [] };
      trace.attachments.push(attachment);
      byTrace.set(key, trace);
    }
    if (byTrace.size) {
      await this.traces.publish<TraceIngestMessage>(
        Topics.TraceIngest,
        [...byTrace.entries()].map(([key, { projectId, traceId, attachments }]) => ({
          key,
          value: { ingestId: newId('ing'), projectId, receivedAt: Date.now(), trace: { id: traceId, spans: [] }, media: attachments },
        })),
      );
    }
    for (const { output, copyIds, stage } of marks) await markWritten(this.dataSource.manager, output.projectId, output.traceId, output.spanId, copyIds, stage);
  }
}
