import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Prompts, their immutable versions, their labels (a table, so the label filter is an
 * indexed lookup) and the activity trail. The SQL is the same on PostgreSQL and SQLite;
 * both support the partial unique index that makes identifiers unique among live
 * prompts only, so two concurrent creates cannot both take one.
 */
export class CreatePrompts1763877600000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE prompts (
      id varchar(40) PRIMARY KEY,
      project_id varchar(40) NOT NULL,
      identifier varchar(100) NOT NULL,
      name varchar(200) NOT NULL,
      content text NOT NULL,
      type varchar(32) NOT NULL,
      labels text NOT NULL,
      metadata text NOT NULL,
      variables text NOT NULL,
      version integer NOT NULL,
      created_at bigint NOT NULL,
      updated_at bigint NOT NULL,
      deleted_at bigint NULL)`);
    await runner.query('CREATE UNIQUE INDEX prompts_live_identifier ON prompts (project_id, identifier) WHERE deleted_at IS NULL');
    // Keyset paging newest first, with and without the type filter.
    await runner.query('CREATE INDEX prompts_project_id ON prompts (project_id, id)');
    await runner.query('CREATE INDEX prompts_project_type_id ON prompts (project_id, type, id)');
    await runner.query(`CREATE TABLE prompt_versions (
      prompt_id varchar(40) NOT NULL,
      version integer NOT NULL,
      name varchar(200) NOT NULL,
      content text NOT NULL,
      labels text NOT NULL,
      metadata text NOT NULL,
      variables text NOT NULL,
      created_at bigint NOT NULL,
      PRIMARY KEY (prompt_id, version))`);
    await runner.query(`CREATE TABLE prompt_labels (
      prompt_id varchar(40) NOT NULL,
      label varchar(50) NOT NULL,
      PRIMARY KEY (prompt_id, label))`);
    await runner.query('CREATE INDEX prompt_labels_label ON prompt_labels (label, prompt_id)');
    await runner.query(`CREATE TABLE prompt_activity (
      id varchar(40) PRIMARY KEY,
      prompt_id varchar(40) NOT NULL,
      action varchar(16) NOT NULL,
      version integer NOT NULL,
      actor_type varchar(16) NOT NULL,
      actor_id varchar(40) NOT NULL,
      at bigint NOT NULL,
      changes text NOT NULL)`);
    await runner.query('CREATE INDEX prompt_activity_prompt_id ON prompt_activity (prompt_id, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['prompt_activity', 'prompt_labels', 'prompt_versions', 'prompts']) {
      await runner.query(`DROP TABLE ${table}`);
    }
  }
}
