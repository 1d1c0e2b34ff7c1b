import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tasks of a run handed over and unfinished: counted each time a run's window is
 * refilled. Without it the count reads every pending task of the run (thousands to find
 * at most 64). Partial indexes exist in PostgreSQL and SQLite alike.
 */
export class IndexTasksInFlight1764057600000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query("CREATE INDEX tasks_in_flight ON tasks (run_id) WHERE dispatched_at IS NOT NULL AND status IN ('pending', 'running')");
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX tasks_in_flight');
  }
}
