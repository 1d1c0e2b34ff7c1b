import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The media each run's task outputs name, written with the tasks' results: a run summary
 * counts their annotations from this list (its primary key reads a run's media in order)
 * instead of reading every output again. Runs finished before it have no rows.
 */
export class CreateRunMedia1764800000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE run_media (
      run_id varchar(40) NOT NULL,
      media_id varchar(40) NOT NULL,
      PRIMARY KEY (run_id, media_id))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE run_media');
  }
}
