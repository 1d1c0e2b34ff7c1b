import type { MediaProbeView, MediaStatus } from '@cinetrace/contracts';
import type { StoredStoryboard } from '../storyboard/stored-storyboard';
import { epochMs } from '@cinetrace/persistence';
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A media of a project: the blob holding its bytes (content-addressed, so one row per sha256) and what the probe found. */
@Entity('media')
@Index('media_project_sha256', ['projectId', 'sha256'], { unique: true })
@Index('media_project_id', ['projectId', 'id'])
@Index('media_status_id', ['status', 'id'])
export class Media {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'project_id', type: 'varchar', length: 40 }) projectId: string;
  @Column({ type: 'varchar', length: 64 }) sha256: string;
  @Column({ name: 'content_type', type: 'varchar', length: 255 }) contentType: string;
  @Column({ type: 'bigint', transformer: epochMs }) bytes: number;
  @Column({ name: 'blob_key', type: 'varchar', length: 200 }) blobKey: string;
  @Column({ name: 'source_url', type: 'text', nullable: true }) sourceUrl: string | null;
  @Column({ type: 'varchar', length: 16 }) status: MediaStatus;
  @Column({ type: 'simple-json', nullable: true }) probe: MediaProbeView | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'created_at', type: 'bigint', transformer: epochMs }) createdAt: number;
  /** Set once the storyboard job ran: its keyframe instants, or why there are none. */
  @Column({ type: 'simple-json', nullable: true }) storyboard?: StoredStoryboard | null;
}
