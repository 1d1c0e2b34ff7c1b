import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trace and span times keep their microseconds (docs/decisions, "Times to the microsecond"):
 * `start_time_us` and `end_time_us` hold the microseconds past the millisecond of
 * `start_time` and `end_time` (0..999). The millisecond columns stay as they were, so their
 * indexes, the list's order and its cursors do not change. Rows stored before read 0:
 * their times were whole milliseconds. The SQL is the same on PostgreSQL and SQLite.
 */
export class KeepMicroseconds1765300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    for (const table of ['traces', 'spans']) {
      await runner.query(`ALTER TABLE ${table} ADD COLUMN start_time_us smallint NOT NULL DEFAULT 0`);
      await runner.query(`ALTER TABLE ${table} ADD COLUMN end_time_us smallint NOT NULL DEFAULT 0`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['spans', 'traces']) {
      await runner.query(`ALTER TABLE ${table} DROP COLUMN end_time_us`);
      await runner.query(`ALTER TABLE ${table} DROP COLUMN start_time_us`);
    }
  }
}
