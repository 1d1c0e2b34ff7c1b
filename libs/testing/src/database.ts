import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** Where the harness creates and drops its databases; `E2E_PG_ADMIN_URL` overrides. */
const adminUrl = () => process.env.E2E_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database, so every stack starts from an empty store. */
export async function createDatabase(): Promise<TestDatabase> {
  // The name is generated here (hex only), so splicing it into DDL is safe.
  const name = `ct_e2e_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a killed app may leave connections behind for a moment.
    drop: () => admin(async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
