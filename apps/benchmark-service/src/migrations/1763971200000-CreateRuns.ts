import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Runs and their tasks. `active_benchmark_id` holds the benchmark's id while the run is
 * queued or running and NULL after; its unique index is what makes two concurrent starts
 * unable to both win (NULLs never collide, on PostgreSQL and SQLite alike). A run keeps
 * what it executes (`plan`: target, scorers, prompt) and each task its item, so a run is
 * explained by its own rows whatever happens to the dataset later. Counters on the run
 * row are kept in step with its tasks' statuses by the transactions that move them.
 */
export class CreateRuns1763971200000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE runs (
      id varchar(40) PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      benchmark_id varchar(40) NOT NULL,
      active_benchmark_id varchar(40) NULL,
      status varchar(16) NOT NULL,
      experiment text NOT NULL,
      runner text NOT NULL,
      plan text NOT NULL,
      dataset_id varchar(40) NOT NULL,
      dataset_version integer NOT NULL,
      total integer NOT NULL,
      pending integer NOT NULL,
      running integer NOT NULL,
      completed integer NOT NULL,
      failed integer NOT NULL,
      cancelled integer NOT NULL,
      score_totals text NOT NULL,
      cost_usd double precision NULL,
      created_at bigint NOT NULL,
      started_at bigint NULL,
      finished_at bigint NULL)`);
    await runner.query('CREATE UNIQUE INDEX runs_active_benchmark ON runs (active_benchmark_id)');
    await runner.query('CREATE INDEX runs_benchmark_id ON runs (benchmark_id, id)');
    await runner.query('CREATE INDEX runs_project_created ON runs (project_id, created_at)');
    await runner.query('CREATE INDEX runs_project_status ON runs (project_id, status)');
    await runner.query(`CREATE TABLE tasks (
      id varchar(40) PRIMARY KEY,
      run_id varchar(40) NOT NULL,
      project_id varchar(40) NOT NULL,
      item_id varchar(40) NOT NULL,
      item_index integer NOT NULL,
      status varchar(16) NOT NULL,
      attempts integer NOT NULL,
      input text NOT NULL,
      expected text NULL,
      metadata text NOT NULL,
      output text NULL,
      scores text NOT NULL,
      error text NULL,
      usage text NULL,
      cost_usd double precision NULL,
      trace_id varchar(40) NOT NULL,
      dispatched_at bigint NULL,
      started_at bigint NULL,
      finished_at bigint NULL,
      duration_ms bigint NULL)`);
    await runner.query('CREATE UNIQUE INDEX tasks_run_item ON tasks (run_id, item_index)');
    await runner.query('CREATE INDEX tasks_run_status_item ON tasks (run_id, status, item_index)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE tasks');
    await runner.query('DROP TABLE runs');
  }
}
