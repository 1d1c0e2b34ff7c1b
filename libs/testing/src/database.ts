import { randomBytes } from 'node:crypto';
import { postgresConnection } from '@cinetrace/config';
import { Client } from 'pg';

/** Where the harness creates and drops its databases; `E2E_PG_ADMIN_URL` overrides. */
const defaultAdminUrl = () => process.env.E2E_PG_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A PostgreSQL server of a test's own: its admin URL (sslmode included) and the CA its certificate chains to. */
export interface DatabaseServer {
  adminUrl: string;
  caFile?: string;
}

export interface TestDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

async function admin<T>(server: DatabaseServer, work: (client: Client) => Promise<T>): Promise<T> {
  // TLS as the apps use it (sslmode, the CA file).
  const { url, ssl } = postgresConnection(server.adminUrl, server.caFile);
  const client = new Client({ connectionString: url, ssl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database, so every stack starts from an empty store. */
export async function createDatabase(server: DatabaseServer = { adminUrl: defaultAdminUrl() }): Promise<TestDatabase> {
  // The name is generated here (hex only), so splicing it into DDL is safe.
  const name = `ct_e2e_${randomBytes(6).toString('hex')}`;
  await admin(server, (c) => c.query(`CREATE DATABASE ${name}`));
  // The admin URL's parameters (sslmode) are kept.
  const url = new URL(server.adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // FORCE: a killed app may leave connections behind for a moment.
    drop: () => admin(server, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
