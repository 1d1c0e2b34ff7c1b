import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Idempotency records and shared settings. The SQL is the same on PostgreSQL and SQLite. */
export class CreateGatewayTables1763791300000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE idempotency_records (
      scope varchar(100) NOT NULL,
      idem_key varchar(255) NOT NULL,
      fingerprint varchar(64) NOT NULL,
      state varchar(10) NOT NULL,
      status_code integer NULL,
      response_body text NULL,
      location text NULL,
      created_at bigint NOT NULL,
      expires_at bigint NOT NULL,
      PRIMARY KEY (scope, idem_key))`);
    await runner.query('CREATE INDEX idempotency_records_expires_at ON idempotency_records (expires_at)');
    await runner.query('CREATE TABLE gateway_settings (name varchar(100) PRIMARY KEY, value text NOT NULL)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE gateway_settings');
    await runner.query('DROP TABLE idempotency_records');
  }
}
