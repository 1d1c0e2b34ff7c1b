import { hashApiKey } from '@cinetrace/auth';
import { Api, Stack } from '@cinetrace/testing';
import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * A second organization with an API key of its own, written straight into project-service's
 * store (the stack's SQLite file, or its PostgreSQL schema): what a tenant next door holds.
 */
export async function addOrganization(stack: Stack): Promise<{ orgId: string; api: Api }> {
  const suffix = randomBytes(8).toString('hex');
  const orgId = `org_e2e${suffix}`;
  const key = `e2e-other-org-${randomBytes(16).toString('hex')}`;
  const now = Date.now();
  const organization = [orgId, `e2e-${suffix}`, 'Another organization', now];
  const apiKey = [`key_e2e${suffix}`, orgId, 'Another organization key', hashApiKey(key), key.slice(0, 12), now];
  const insertOrganization = 'INSERT INTO organizations (id, slug, name, created_at) VALUES ';
  const insertKey = 'INSERT INTO api_keys (id, org_id, name, key_hash, preview, created_at) VALUES ';
  if (stack.databaseUrl) {
    const client = new Client({ connectionString: stack.databaseUrl });
    await client.connect();
    try {
      await client.query('SET search_path TO project_service');
      await client.query(`${insertOrganization}($1, $2, $3, $4)`, organization);
      await client.query(`${insertKey}($1, $2, $3, $4, $5, $6)`, apiKey);
    } finally {
      await client.end();
    }
  } else {
    const db = new Database(join(stack.dataDir, 'project-service.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(`${insertOrganization}(?, ?, ?, ?)`).run(...organization);
      db.prepare(`${insertKey}(?, ?, ?, ?, ?, ?)`).run(...apiKey);
    } finally {
      db.close();
    }
  }
  return { orgId, api: new Api(stack.baseUrl).withAuthorization(`Bearer ${key}`) };
}
