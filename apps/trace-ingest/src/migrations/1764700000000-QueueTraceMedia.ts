import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `trace_media_outbox`: media references of stored outputs not yet handed to media-service
 * (docs/architecture.md, "Media in trace outputs"). Written in the transaction that stores
 * the output, deleted once media-service accepted them: a restart loses none. `span_id` ''
 * is the trace's own output. The SQL is the same on PostgreSQL and SQLite.
 */
export class QueueTraceMedia1764700000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE trace_media_outbox (
      project_id varchar(40) NOT NULL,
      trace_id varchar(128) NOT NULL,
      span_id varchar(128) NOT NULL,
      url varchar(2048) NOT NULL,
      content_type varchar(255) NOT NULL,
      queued_at bigint NOT NULL,
      PRIMARY KEY (project_id, trace_id, span_id, url))`);
    await runner.query('CREATE INDEX trace_media_outbox_queued ON trace_media_outbox (queued_at)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE trace_media_outbox');
  }
}
