import path from 'node:path';
import { postgresConnection } from '@cinetrace/config';
import type { ConnectionOptions } from 'node:tls';

/** Where one service keeps its data: its own PostgreSQL schema, or its own SQLite file. */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; schema: string; /** TLS as DATABASE_URL's sslmode says (see postgresConnection). */ ssl: false | ConnectionOptions }
  | { kind: 'sqlite'; file: string };

/** PostgreSQL when DATABASE_URL is set (schema named after the service), else `<DATA_DIR>/<service>.sqlite`. */
export function databaseTarget(service: string, env: { databaseUrl?: string; databaseCaFile?: string; dataDir: string }): DatabaseTarget {
  if (env.databaseUrl) {
    const { url, ssl } = postgresConnection(env.databaseUrl, env.databaseCaFile);
    return { kind: 'postgres', url, ssl, schema: service.replace(/-/g, '_') };
  }
  return { kind: 'sqlite', file: path.resolve(env.dataDir, `${service}.sqlite`) };
}
