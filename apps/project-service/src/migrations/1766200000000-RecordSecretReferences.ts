import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which secrets each benchmark names, as benchmark-service tells it (docs/architecture.md,
 * "Service dependencies"): a secret still named cannot be deleted, and project-service
 * decides that without asking benchmark-service. `secret_reference_benchmarks` remembers
 * each benchmark told of and whether it is deleted (final: a late fact cannot bring its names
 * back). They start empty: benchmark-service's migration QueueFacts queues what it already
 * holds. The SQL is the same on PostgreSQL and SQLite.
 */
export class RecordSecretReferences1766200000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE secret_reference_benchmarks (
      benchmark_id varchar(40) NOT NULL PRIMARY KEY,
      org_id varchar(40) NOT NULL,
      deleted smallint NOT NULL)`);
    await runner.query(`CREATE TABLE secret_references (
      org_id varchar(40) NOT NULL,
      secret_name varchar(100) NOT NULL,
      benchmark_id varchar(40) NOT NULL,
      PRIMARY KEY (org_id, secret_name, benchmark_id))`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE secret_references');
    await runner.query('DROP TABLE secret_reference_benchmarks');
  }
}
