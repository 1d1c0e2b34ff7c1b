import { epochMs, nullableNumber } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A reviewer's mark on a time range of a media: a label, and optionally a score and a comment. */
@Entity('media_annotations')
@Index('media_annotations_media_start', ['mediaId', 'startMs', 'id'])
@Index('media_annotations_project_media_label', ['projectId', 'mediaId', 'label'])
export class MediaAnnotation {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ name: 'media_id', type: 'varchar', length: 40 }) mediaId: string;
  @Column({ name: 'start_ms', type: 'bigint', transformer: epochMs }) startMs: number;
  @Column({ name: 'end_ms', type: 'bigint', transformer: epochMs }) endMs: number;
  @Column({ type: 'varchar', length: 100 }) label: string;
  @Column({ type: 'double precision', nullable: true, transformer: nullableNumber }) score: number | null;
  @Column({ type: 'text', nullable: true }) comment: string | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
}
