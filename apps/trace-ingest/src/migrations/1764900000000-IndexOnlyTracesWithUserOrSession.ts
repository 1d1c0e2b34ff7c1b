import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The user and session indexes hold only traces that have a user or a session: a list
 * filtered by either asks for `user_id = …` (or `session_id = …`), which rules NULL out, so
 * both PostgreSQL and SQLite still use them, while a trace without them (a benchmark task's,
 * most OpenTelemetry exports) no longer writes two index entries that no query reads.
 */
export class IndexOnlyTracesWithUserOrSession1764900000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX traces_project_user_start');
    await runner.query('CREATE INDEX traces_project_user_start ON traces (project_id, user_id, start_time, id) WHERE user_id IS NOT NULL');
    await runner.query('DROP INDEX traces_project_session_start');
    await runner.query('CREATE INDEX traces_project_session_start ON traces (project_id, session_id, start_time, id) WHERE session_id IS NOT NULL');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX traces_project_user_start');
    await runner.query('CREATE INDEX traces_project_user_start ON traces (project_id, user_id, start_time, id)');
    await runner.query('DROP INDEX traces_project_session_start');
    await runner.query('CREATE INDEX traces_project_session_start ON traces (project_id, session_id, start_time, id)');
  }
}
