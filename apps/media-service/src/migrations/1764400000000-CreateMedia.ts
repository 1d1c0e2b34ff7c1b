import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Media: one row per distinct content (sha256) in a project, naming the blob that holds it.
 * Lists page newest first by id, filtered by status or content type. The SQL is the same on
 * PostgreSQL and SQLite.
 */
export class CreateMedia1764400000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE media (
      id varchar(40) NOT NULL PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      sha256 varchar(64) NOT NULL,
      content_type varchar(255) NOT NULL,
      bytes bigint NOT NULL,
      blob_key varchar(200) NOT NULL,
      source_url text NULL,
      status varchar(16) NOT NULL,
      probe text NULL,
      error text NULL,
      created_at bigint NOT NULL)`);
    await runner.query('CREATE UNIQUE INDEX media_project_sha256 ON media (project_id, sha256)');
    await runner.query('CREATE INDEX media_project_id ON media (project_id, id)');
    await runner.query('CREATE INDEX media_status_id ON media (status, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE media');
  }
}
