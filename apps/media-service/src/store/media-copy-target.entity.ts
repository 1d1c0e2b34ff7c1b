import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * How far an output's write-back went: `none` yet, its `mediaId` (`media`; the probe still
 * runs), or all of it (`done`: every copy it names settled and written, or failed).
 */
export const WRITE_BACK_STAGES = ['none', 'media', 'done'] as const;
export type WriteBackStage = (typeof WRITE_BACK_STAGES)[number];

/** The trace's own output has no span: '' in the key (which cannot hold a NULL). */
export const TRACE_OUTPUT = '';

/** An output (a span's, or the trace's own) that named a copy's URL. */
@Entity('media_copy_targets')
@Index('media_copy_targets_output', ['projectId', 'traceId', 'spanId'])
@Index('media_copy_targets_written', ['written', 'copyId'])
export class MediaCopyTarget {
  @PrimaryColumn({ name: 'copy_id', type: 'varchar', length: 40 }) copyId: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @PrimaryColumn({ name: 'trace_id', type: 'varchar', length: 128 }) traceId: string;
  @PrimaryColumn({ name: 'span_id', type: 'varchar', length: 128 }) spanId: string;
  @Column({ type: 'varchar', length: 16 }) written: WriteBackStage;
}
