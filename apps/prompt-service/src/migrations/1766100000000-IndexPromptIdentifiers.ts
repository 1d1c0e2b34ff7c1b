import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every prompt (deleted ones too) by identifier: a create asks whether the newest prompt
 * that held its identifier was deleted with a gated release (the gate reserves the
 * identifier). The live-only unique index does not see deleted prompts. Same SQL on
 * PostgreSQL and SQLite.
 */
export class IndexPromptIdentifiers1766100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX prompts_project_identifier_id ON prompts (project_id, identifier, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX prompts_project_identifier_id');
  }
}
