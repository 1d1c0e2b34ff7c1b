import type { Stack } from '@cinetrace/testing';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { Client } from 'pg';

/**
 * Runs one statement in trace-ingest's own store, beside the running apps: for tests
 * that need a row the API would no longer write (one stored before a validation
 * existed). `?` placeholders, bound in both dialects.
 */
export async function runInTraceStore(stack: Stack, sql: string, params: unknown[] = []): Promise<void> {
  if (stack.databaseUrl === null) {
    const db = new Database(join(stack.dataDir, 'trace-ingest.sqlite'));
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
    return;
  }
  const client = new Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    let n = 0;
    await client.query('SET search_path TO trace_ingest');
    await client.query(
      sql.replace(/\?/g, () => `$${++n}`),
      params,
    );
  } finally {
    await client.end();
  }
}
