import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Costs a client did not send (docs/api-reference.md, "Model prices"): each project's price
 * entries (`model_prices`, JSON, one row per project that set any; `version` counts its PUTs,
 * so a cached table knows it is stale), and where each span's cost came from
 * (`spans.cost_source`: `sent` or `computed`). Spans stored before have none: their costs were
 * all sent, and are read so. The SQL is the same on PostgreSQL and SQLite.
 */
export class PriceSpansAtIngest1765100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE spans ADD COLUMN cost_source varchar(16) NULL');
    await runner.query(`CREATE TABLE model_prices (
      project_id varchar(40) PRIMARY KEY,
      entries text NOT NULL,
      version integer NOT NULL,
      updated_at bigint NOT NULL)`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE model_prices');
    await runner.query('ALTER TABLE spans DROP COLUMN cost_source');
  }
}
