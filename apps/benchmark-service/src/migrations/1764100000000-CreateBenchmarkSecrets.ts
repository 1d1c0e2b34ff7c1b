import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Which secrets each benchmark names, by organization: a secret still named cannot be deleted. */
export class CreateBenchmarkSecrets1764100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE benchmark_secrets (
      benchmark_id varchar(40) NOT NULL,
      secret_name varchar(100) NOT NULL,
      org_id varchar(40) NOT NULL,
      PRIMARY KEY (benchmark_id, secret_name))`);
    await runner.query('CREATE INDEX benchmark_secrets_org_name ON benchmark_secrets (org_id, secret_name)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE benchmark_secrets');
  }
}
