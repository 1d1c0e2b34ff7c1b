import { runForDialect } from '@cinetrace/persistence';
import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys as a resource: scopes, an optional project restriction, when each was last
 * used, and which keys are instance admins. Keys made before this were bootstrap keys,
 * so they become `admin` instance admins, as the bootstrap key is now.
 */
export class AddApiKeyScopes1764100000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    // JSON arrays as text, as the other services keep JSON. NULL project_ids: every project.
    await runner.query(`ALTER TABLE api_keys ADD COLUMN scopes text NOT NULL DEFAULT '["admin"]'`);
    await runner.query('ALTER TABLE api_keys ADD COLUMN project_ids text NULL');
    await runner.query('ALTER TABLE api_keys ADD COLUMN last_used_at bigint NULL');
    await runForDialect(runner, {
      postgres: ['ALTER TABLE api_keys ADD COLUMN instance_admin boolean NOT NULL DEFAULT false', 'UPDATE api_keys SET instance_admin = true'],
      sqlite: ['ALTER TABLE api_keys ADD COLUMN instance_admin boolean NOT NULL DEFAULT 0', 'UPDATE api_keys SET instance_admin = 1'],
    });
    // Keyset paging of an organization's keys, newest first.
    await runner.query('CREATE INDEX api_keys_org_id ON api_keys (org_id, id)');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP INDEX api_keys_org_id');
    for (const column of ['instance_admin', 'last_used_at', 'project_ids', 'scopes']) {
      await runner.query(`ALTER TABLE api_keys DROP COLUMN ${column}`);
    }
  }
}
