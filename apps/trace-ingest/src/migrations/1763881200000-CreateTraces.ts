import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Traces and spans, keyed by the client's ids within a project. The SQL is the same on
 * PostgreSQL and SQLite (JSON kept as text, times as epoch ms). Receipts record which
 * ingest messages are stored, for `Prefer: wait`.
 */
export class CreateTraces1763881200000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE traces (
      project_id varchar(40) NOT NULL,
      id varchar(128) NOT NULL,
      name varchar(256) NULL,
      status varchar(16) NOT NULL,
      status_explicit smallint NOT NULL,
      start_time bigint NOT NULL,
      start_explicit smallint NOT NULL,
      end_time bigint NULL,
      input text NULL,
      output text NULL,
      metadata text NOT NULL,
      tags text NOT NULL,
      user_id varchar(256) NULL,
      session_id varchar(256) NULL,
      span_count integer NOT NULL,
      error_count integer NOT NULL,
      usage text NOT NULL,
      cost_usd double precision NULL,
      cost_spans integer NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      PRIMARY KEY (project_id, id))`);
    // Keyset paging newest first, alone and under the common equality filters.
    await runner.query('CREATE INDEX traces_project_start ON traces (project_id, start_time, id)');
    await runner.query('CREATE INDEX traces_project_user_start ON traces (project_id, user_id, start_time, id)');
    await runner.query('CREATE INDEX traces_project_session_start ON traces (project_id, session_id, start_time, id)');
    await runner.query('CREATE INDEX traces_project_name_start ON traces (project_id, name, start_time, id)');
    await runner.query(`CREATE TABLE trace_tags (
      project_id varchar(40) NOT NULL,
      tag varchar(100) NOT NULL,
      trace_id varchar(128) NOT NULL,
      PRIMARY KEY (project_id, tag, trace_id))`);
    await runner.query(`CREATE TABLE spans (
      project_id varchar(40) NOT NULL,
      trace_id varchar(128) NOT NULL,
      id varchar(128) NOT NULL,
      parent_id varchar(128) NULL,
      name varchar(256) NOT NULL,
      kind varchar(16) NOT NULL,
      status varchar(16) NOT NULL,
      status_message text NULL,
      start_time bigint NOT NULL,
      end_time bigint NULL,
      model varchar(256) NULL,
      input text NULL,
      output text NULL,
      usage text NULL,
      cost_usd double precision NULL,
      attributes text NULL,
      events text NULL,
      PRIMARY KEY (project_id, trace_id, id))`);
    await runner.query(`CREATE TABLE trace_receipts (
      ingest_id varchar(40) PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      trace_id varchar(128) NOT NULL,
      stored_at bigint NOT NULL)`);
    await runner.query('CREATE INDEX trace_receipts_stored_at ON trace_receipts (stored_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['trace_receipts', 'spans', 'trace_tags', 'traces']) await runner.query(`DROP TABLE ${table}`);
  }
}
