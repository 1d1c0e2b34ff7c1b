import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Copies of media that trace and span outputs name by URL (docs/architecture.md, "Media in
 * trace outputs"): one row per URL in a project (`pending` until fetched, then `copied` with
 * its media or `failed` with the reason), and the outputs that named it (`span_id` '' is the
 * trace's own), each with how far its write-back went. The SQL is the same on PostgreSQL and
 * SQLite.
 */
export class CreateMediaCopies1764700000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE media_copies (
      id varchar(40) NOT NULL PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      url varchar(2048) NOT NULL,
      content_type varchar(255) NOT NULL,
      status varchar(16) NOT NULL,
      media_id varchar(40) NULL,
      error text NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL)`);
    await runner.query('CREATE UNIQUE INDEX media_copies_project_url ON media_copies (project_id, url)');
    await runner.query('CREATE INDEX media_copies_status_id ON media_copies (status, id)');
    await runner.query('CREATE INDEX media_copies_media ON media_copies (media_id)');
    await runner.query(`CREATE TABLE media_copy_targets (
      copy_id varchar(40) NOT NULL,
      project_id varchar(40) NOT NULL,
      trace_id varchar(128) NOT NULL,
      span_id varchar(128) NOT NULL,
      written varchar(16) NOT NULL,
      PRIMARY KEY (copy_id, trace_id, span_id))`);
    await runner.query('CREATE INDEX media_copy_targets_output ON media_copy_targets (project_id, trace_id, span_id)');
    await runner.query('CREATE INDEX media_copy_targets_written ON media_copy_targets (written, copy_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE media_copy_targets');
    await runner.query('DROP TABLE media_copies');
  }
}
