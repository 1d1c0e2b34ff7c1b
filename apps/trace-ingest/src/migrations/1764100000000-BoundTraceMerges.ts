import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What bounds a trace over its merges: the bytes of its spans (`span_bytes`), and what
 * merges left out to keep it within its limits (`dropped`, JSON, on the trace and on each
 * ingest's receipt, which `Prefer: wait` answers with). Traces stored before count their
 * spans from the stored columns: close to, not exactly, the spans' JSON.
 */
export class BoundTraceMerges1764100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    const postgres = runner.connection.options.type === 'postgres';
    const bytes = (column: string) => (postgres ? `octet_length(coalesce(${column}, ''))` : `length(CAST(coalesce(${column}, '') AS BLOB))`);
    await runner.query('ALTER TABLE traces ADD COLUMN span_bytes bigint NOT NULL DEFAULT 0');
    await runner.query('ALTER TABLE traces ADD COLUMN dropped text NULL');
    await runner.query('ALTER TABLE trace_receipts ADD COLUMN dropped text NULL');
    const spanBytes = ['name', 'status_message', 'model', 'input', 'output', 'usage', 'attributes', 'events'].map(bytes).join(' + ');
    // About 200 bytes of each span's JSON are its ids, kind, status, times and field names.
    await runner.query(`UPDATE traces SET span_bytes = coalesce((SELECT sum(${spanBytes} + 200) FROM spans s
      WHERE s.project_id = traces.project_id AND s.trace_id = traces.id), 0) WHERE span_count > 0`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE trace_receipts DROP COLUMN dropped');
    await runner.query('ALTER TABLE traces DROP COLUMN dropped');
    await runner.query('ALTER TABLE traces DROP COLUMN span_bytes');
  }
}
