import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Time-coded annotations on media: a reviewer's label (and score, comment) on a range of a
 * media's time. Listed per media by `(start_ms, id)`; counted by label for a set of media
 * (run summaries), so the project and media lead the second index. The SQL is the same on
 * PostgreSQL and SQLite.
 */
export class CreateMediaAnnotations1764610000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE media_annotations (
      id varchar(40) NOT NULL PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      media_id varchar(40) NOT NULL,
      start_ms bigint NOT NULL,
      end_ms bigint NOT NULL,
      label varchar(100) NOT NULL,
      score double precision NULL,
      comment text NULL,
      created_at bigint NOT NULL)`);
    await runner.query('CREATE INDEX media_annotations_media_start ON media_annotations (media_id, start_ms, id)');
    await runner.query('CREATE INDEX media_annotations_project_media_label ON media_annotations (project_id, media_id, label)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE media_annotations');
  }
}
