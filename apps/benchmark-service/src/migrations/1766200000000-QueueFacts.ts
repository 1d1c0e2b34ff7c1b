import { runForDialect } from '@cinetrace/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `fact_outbox`: what other services keep a copy of and must be told (docs/architecture.md,
 * "Service dependencies"): a benchmark or a completed run prompt-service judges gates by, a
 * benchmark's secret names project-service refuses deletes by. A row names what changed, in
 * the transaction that changed it; the relay sends its state as it is then and deletes the row.
 * The backfill queues what exists, so an upgraded deployment's copies start complete.
 */
export class QueueFacts1766200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const columns = `kind varchar(32) NOT NULL, subject_id varchar(40) NOT NULL, queued_at bigint NOT NULL`;
    await runForDialect(runner, {
      postgres: [`CREATE TABLE fact_outbox (id bigserial PRIMARY KEY, ${columns})`],
      // AUTOINCREMENT: an id is never handed out twice, so a row read, sent and deleted is never confused with a later one.
      sqlite: [`CREATE TABLE fact_outbox (id integer PRIMARY KEY AUTOINCREMENT, ${columns})`],
    });
    const now = Date.now();
    await runner.query(`INSERT INTO fact_outbox (kind, subject_id, queued_at) SELECT 'gate-benchmark', id, ${now} FROM benchmarks WHERE deleted_at IS NULL ORDER BY id`);
    await runner.query(
      `INSERT INTO fact_outbox (kind, subject_id, queued_at)
       SELECT 'gate-run', id, ${now} FROM runs WHERE status = 'completed' AND prompt_id IS NOT NULL ORDER BY id`,
    );
    await runner.query(
      `INSERT INTO fact_outbox (kind, subject_id, queued_at)
       SELECT 'secret-references', id, ${now} FROM benchmarks
        WHERE deleted_at IS NULL AND EXISTS (SELECT 1 FROM benchmark_secrets s WHERE s.benchmark_id = benchmarks.id) ORDER BY id`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE fact_outbox');
  }
}
