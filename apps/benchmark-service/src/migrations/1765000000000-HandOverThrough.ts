import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a run handed over to the executors, as one number on the run: the item index it has
 * handed over through. A fill takes the lowest pending tasks past it, in item order, so the
 * tasks handed over are a prefix and a task is in flight while it is open at or below it.
 * Each task's `dispatched_at` made a second, non-HOT update of its row (a new tuple and an
 * entry in every index) and kept a partial index whose dead entries every count read.
 * Runs under way keep their window: the mark becomes their highest open task handed over.
 */
export class HandOverThrough1765000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE runs ADD COLUMN handed_over_through integer NOT NULL DEFAULT -1');
    await runner.query(
      `UPDATE runs SET handed_over_through = COALESCE((SELECT MAX(item_index) FROM tasks
         WHERE tasks.run_id = runs.id AND tasks.dispatched_at IS NOT NULL AND tasks.status IN ('pending', 'running')), -1)
       WHERE active_benchmark_id IS NOT NULL`,
    );
    await runner.query('DROP INDEX tasks_in_flight');
    await runner.query('ALTER TABLE tasks DROP COLUMN dispatched_at');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE tasks ADD COLUMN dispatched_at bigint NULL');
    await runner.query(
      `UPDATE tasks SET dispatched_at = 0 WHERE status IN ('pending', 'running')
         AND item_index <= (SELECT handed_over_through FROM runs WHERE runs.id = tasks.run_id)`,
    );
    await runner.query("CREATE INDEX tasks_in_flight ON tasks (run_id) WHERE dispatched_at IS NOT NULL AND status IN ('pending', 'running')");
    await runner.query('ALTER TABLE runs DROP COLUMN handed_over_through');
  }
}
