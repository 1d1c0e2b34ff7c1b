import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Benchmarks: a dataset, scorers, a target and runner settings (JSON as text). Deleted
 * ones are kept (`deleted_at`) so their runs stay explained; only live ones hold their
 * dataset. `status` mirrors the latest run, so the status filter is an indexed lookup.
 */
export class CreateBenchmarks1763888400000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE benchmarks (
      id varchar(40) PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      name varchar(200) NOT NULL,
      description text NOT NULL,
      dataset_id varchar(40) NOT NULL,
      scorers text NOT NULL,
      target text NOT NULL,
      runner text NOT NULL,
      status varchar(16) NOT NULL,
      last_run_id varchar(40) NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      deleted_at bigint NULL)`);
    await runner.query('CREATE INDEX benchmarks_project_id ON benchmarks (project_id, id)');
    await runner.query('CREATE INDEX benchmarks_project_status_id ON benchmarks (project_id, status, id)');
    await runner.query('CREATE INDEX benchmarks_dataset ON benchmarks (dataset_id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE benchmarks');
  }
}
