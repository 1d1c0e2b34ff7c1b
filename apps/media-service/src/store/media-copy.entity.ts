import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

export const MEDIA_COPY_STATUSES = ['pending', 'copied', 'failed'] as const;
export type MediaCopyStatus = (typeof MEDIA_COPY_STATUSES)[number];

/** A copy of the media at a URL that a project's trace outputs named: fetched once per URL, whatever the number of outputs naming it. */
@Entity('media_copies')
@Index('media_copies_project_url', ['projectId', 'url'], { unique: true })
@Index('media_copies_status_id', ['status', 'id'])
@Index('media_copies_media', ['mediaId'])
export class MediaCopy {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ type: 'varchar', length: 2048 }) url: string;
  @Column({ name: 'content_type', type: 'varchar', length: 255 }) contentType: string;
  @Column({ type: 'varchar', length: 16 }) status: MediaCopyStatus;
  /** The media holding the copy, once `copied`. */
  @Column({ name: 'media_id', type: 'varchar', length: 40, nullable: true }) mediaId: string | null;
  /** Why the copy failed, once `failed` (shown in logs; the output keeps its url alone). */
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMs }) updatedAt: number;
}
