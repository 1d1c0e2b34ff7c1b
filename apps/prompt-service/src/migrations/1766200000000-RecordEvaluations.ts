import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a release's gate judges by, as benchmark-service tells it (docs/architecture.md,
 * "Service dependencies"): `gate_benchmarks`, each benchmark's scorers and its dataset's
 * version now (NULL once the dataset is gone; `deleted` 1 once the benchmark is), and
 * `gate_runs`, the completed runs that rendered a prompt version. prompt-service judges
 * gates from these alone. They start empty: benchmark-service's migration QueueFacts queues
 * what it already holds, and its relay fills them. The SQL is the same on PostgreSQL and SQLite.
 */
export class RecordEvaluations1766200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE gate_benchmarks (
      id varchar(40) NOT NULL PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      scorers text NOT NULL,
      dataset_id varchar(40) NOT NULL,
      dataset_version integer NULL,
      deleted smallint NOT NULL)`);
    await runner.query(`CREATE TABLE gate_runs (
      id varchar(40) NOT NULL PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      benchmark_id varchar(40) NOT NULL,
      prompt_id varchar(40) NOT NULL,
      prompt_version integer NOT NULL,
      dataset_id varchar(40) NOT NULL,
      dataset_version integer NOT NULL,
      items integer NOT NULL,
      dataset_items integer NOT NULL,
      finished_at bigint NOT NULL,
      scores text NOT NULL)`);
    await runner.query('CREATE INDEX gate_runs_of_prompt ON gate_runs (benchmark_id, prompt_id, prompt_version, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE gate_runs');
    await runner.query('DROP TABLE gate_benchmarks');
  }
}
