import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Releases: named pointers to a version of a prompt, with an optional gate. `revision`
 * counts the release's changes: a move is a compare-and-set on it, so two concurrent
 * moves are applied one after the other and the activity records each from what it
 * really replaced. The SQL is the same on PostgreSQL and SQLite.
 */
export class CreatePromptReleases1764300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE prompt_releases (
      prompt_id varchar(40) NOT NULL,
      name varchar(50) NOT NULL,
      version integer NOT NULL,
      gate text NULL,
      revision integer NOT NULL,
      updated_at bigint NOT NULL,
      updated_by varchar(40) NOT NULL,
      PRIMARY KEY (prompt_id, name))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE prompt_releases');
  }
}
