import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Datasets and their items. Items are numbered 0, 1, … in the order they were added
 * (`idx`): the primary key makes two concurrent appends unable to take one number, and
 * items page oldest first on it. The SQL is the same on PostgreSQL and SQLite.
 */
export class CreateDatasets1763884800000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE datasets (
      id varchar(40) PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      name varchar(200) NOT NULL,
      description text NOT NULL,
      item_count integer NOT NULL,
      version integer NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL)`);
    await runner.query('CREATE INDEX datasets_project_id ON datasets (project_id, id)');
    await runner.query('CREATE INDEX datasets_project_name_id ON datasets (project_id, name, id)');
    await runner.query(`CREATE TABLE dataset_items (
      dataset_id varchar(40) NOT NULL,
      idx integer NOT NULL,
      id varchar(40) NOT NULL,
      input text NOT NULL,
      expected text NULL,
      metadata text NOT NULL,
      version integer NOT NULL,
      created_at bigint NOT NULL,
      PRIMARY KEY (dataset_id, idx))`);
    await runner.query('CREATE UNIQUE INDEX dataset_items_id ON dataset_items (id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE dataset_items');
    await runner.query('DROP TABLE datasets');
  }
}
