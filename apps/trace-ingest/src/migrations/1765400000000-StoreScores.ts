import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Scores (docs/api-reference.md, "Scores"), kept beside the traces they judge: `scores`, keyed
 * by project and id (a client's id, as trace ids), with no foreign key to `traces` since a score
 * may arrive before its trace. Read by trace (`scores_by_trace`: a trace's scores, the list's
 * latest value per name and its score filter), and listed newest first (`scores_by_created`).
 * `score_configs`: the project's configs, a name once per project. The SQL is the same on
 * PostgreSQL and SQLite.
 */
export class StoreScores1765400000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE scores (
      project_id varchar(40) NOT NULL,
      id varchar(128) NOT NULL,
      trace_id varchar(128) NOT NULL,
      span_id varchar(128) NULL,
      name varchar(100) NOT NULL,
      value double precision NULL,
      string_value varchar(100) NULL,
      data_type varchar(16) NOT NULL,
      source varchar(16) NOT NULL,
      comment text NULL,
      config_id varchar(40) NULL,
      evaluator_id varchar(128) NULL,
      author varchar(200) NULL,
      created_at bigint NOT NULL,
      PRIMARY KEY (project_id, id))`);
    await runner.query('CREATE INDEX scores_by_trace ON scores (project_id, trace_id, name, created_at, id)');
    await runner.query('CREATE INDEX scores_by_created ON scores (project_id, created_at, id)');
    await runner.query(`CREATE TABLE score_configs (
      project_id varchar(40) NOT NULL,
      id varchar(40) NOT NULL,
      name varchar(100) NOT NULL,
      data_type varchar(16) NOT NULL,
      min_value double precision NULL,
      max_value double precision NULL,
      categories text NULL,
      description text NULL,
      archived smallint NOT NULL DEFAULT 0,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      PRIMARY KEY (project_id, id))`);
    await runner.query('CREATE UNIQUE INDEX score_configs_name ON score_configs (project_id, name)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE score_configs');
    await runner.query('DROP TABLE scores');
  }
}
