import path from 'node:path';

/** Where one service keeps its data: its own PostgreSQL schema, or its own SQLite file. */
export type DatabaseTarget =
  | { kind: 'postgres'; url: string; schema: string }
  | { kind: 'sqlite'; file: string };

/** PostgreSQL when DATABASE_URL is set (schema named after the service), else `<DATA_DIR>/<service>.sqlite`. */
export function databaseTarget(service: string, env: { databaseUrl?: string; dataDir: string }): DatabaseTarget {
  if (env.databaseUrl) return { kind: 'postgres', url: env.databaseUrl, schema: service.replace(/-/g, '_') };
  return { kind: 'sqlite', file: path.resolve(env.dataDir, `${service}.sqlite`) };
}
