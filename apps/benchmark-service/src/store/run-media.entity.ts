import { Entity, PrimaryColumn } from 'typeorm';

/**
 * A media a task output of a run names (`{ mediaId }`), recorded when the task's result is
 * stored: what the run summary counts annotations over, without reading the outputs again.
 * The id is as the output wrote it; media-service decides, per project, whether it is a media.
 */
@Entity('run_media')
export class RunMedia {
  @PrimaryColumn({ name: 'run_id', type: 'varchar', length: 40 }) runId: string;
  @PrimaryColumn({ name: 'media_id', type: 'varchar', length: 40 }) mediaId: string;
}
