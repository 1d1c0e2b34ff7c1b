import { runForDialect } from '@cinetrace/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The prompt and version a run's target rendered, as columns (they were only inside
 * `plan`): a release's gate looks for completed runs of a benchmark by them, down an
 * index. Runs started before are filled from their plan, so they count for gates too.
 */
export class AddRunPrompt1764300000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE runs ADD COLUMN prompt_id varchar(40) NULL');
    await runner.query('ALTER TABLE runs ADD COLUMN prompt_version integer NULL');
    await runForDialect(runner, {
      postgres: [
        `UPDATE runs SET prompt_id = plan::jsonb #>> '{prompt,id}', prompt_version = (plan::jsonb #>> '{prompt,version}')::integer
         WHERE jsonb_typeof(plan::jsonb -> 'prompt') = 'object'`,
      ],
      sqlite: [
        `UPDATE runs SET prompt_id = json_extract(plan, '$.prompt.id'), prompt_version = json_extract(plan, '$.prompt.version')
         WHERE json_type(plan, '$.prompt') = 'object'`,
      ],
    });
    await runner.query('CREATE INDEX runs_benchmark_prompt ON runs (benchmark_id, prompt_id, prompt_version, status, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX runs_benchmark_prompt');
    await runner.query('ALTER TABLE runs DROP COLUMN prompt_version');
    await runner.query('ALTER TABLE runs DROP COLUMN prompt_id');
  }
}
