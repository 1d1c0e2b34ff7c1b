import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Organizations, hashed API keys and projects. The SQL is the same on PostgreSQL and SQLite. */
export class CreateOrganizationsAndProjects1763791200000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE organizations (
      id varchar(40) PRIMARY KEY,
      slug varchar(100) NOT NULL UNIQUE,
      name varchar(200) NOT NULL,
      created_at bigint NOT NULL)`);
    await runner.query(`CREATE TABLE api_keys (
      id varchar(40) PRIMARY KEY,
      org_id varchar(40) NOT NULL REFERENCES organizations (id),
      name varchar(200) NOT NULL,
      key_hash varchar(64) NOT NULL UNIQUE,
      preview varchar(20) NOT NULL,
      created_at bigint NOT NULL,
      revoked_at bigint NULL)`);
    await runner.query(`CREATE TABLE projects (
      id varchar(40) PRIMARY KEY,
      org_id varchar(40) NOT NULL REFERENCES organizations (id),
      name varchar(100) NOT NULL,
      description text NOT NULL DEFAULT '',
      project_key varchar(48) NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL)`);
    await runner.query('CREATE UNIQUE INDEX projects_org_key ON projects (org_id, project_key)');
    // Keyset paging (newest first) and the name filter, both scoped by organization.
    await runner.query('CREATE INDEX projects_org_id ON projects (org_id, id)');
    await runner.query('CREATE INDEX projects_org_name_id ON projects (org_id, name, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE projects');
    await runner.query('DROP TABLE api_keys');
    await runner.query('DROP TABLE organizations');
  }
}
