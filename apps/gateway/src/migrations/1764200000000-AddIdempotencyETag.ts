import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The ETag of a stored answer, so that a replay carries it as the first answer did. Same SQL on PostgreSQL and SQLite. */
export class AddIdempotencyETag1764200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE idempotency_records ADD COLUMN etag text NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE idempotency_records DROP COLUMN etag');
  }
}
