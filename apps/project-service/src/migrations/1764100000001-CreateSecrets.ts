import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations' secrets (values encrypted) and their audit trail. The SQL is the same on PostgreSQL and SQLite. */
export class CreateSecrets1764100000001 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE secrets (
      id varchar(40) PRIMARY KEY,
      org_id varchar(40) NOT NULL REFERENCES organizations (id),
      name varchar(100) NOT NULL,
      key_id varchar(40) NOT NULL,
      iv varchar(40) NOT NULL,
      tag varchar(40) NOT NULL,
      ciphertext text NOT NULL,
      allowed_hosts text NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL)`);
    await runner.query('CREATE UNIQUE INDEX secrets_org_name ON secrets (org_id, name)');
    await runner.query('CREATE INDEX secrets_org_id ON secrets (org_id, id)');
    await runner.query(`CREATE TABLE secret_activity (
      id varchar(40) PRIMARY KEY,
      org_id varchar(40) NOT NULL,
      secret_id varchar(40) NOT NULL,
      secret_name varchar(100) NOT NULL,
      action varchar(16) NOT NULL,
      api_key_id varchar(40) NOT NULL,
      allowed_hosts text NOT NULL,
      at bigint NOT NULL)`);
    await runner.query('CREATE INDEX secret_activity_secret ON secret_activity (org_id, secret_id, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE secret_activity');
    await runner.query('DROP TABLE secrets');
  }
}
