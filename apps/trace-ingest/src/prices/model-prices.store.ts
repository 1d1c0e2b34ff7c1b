import type { ModelPriceEntry } from '@cinetrace/contracts';
import { type Dialect, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';

/** A project's entries as stored: `version` counts its PUTs. */
export interface StoredPrices {
  entries: ModelPriceEntry[];
  version: number;
  updatedAt: number;
}

const dialectOf = (manager: EntityManager): Dialect => (manager.connection.options.type === 'postgres' ? 'postgres' : 'sqlite');

/** The project's entries, or null when it never set any. */
export async function readProjectPrices(manager: EntityManager, projectId: string): Promise<StoredPrices | null> {
  return (await readPrices(manager, [projectId])).get(projectId) ?? null;
}

/** The entries of those of these projects that set any. */
export async function readPrices(manager: EntityManager, projectIds: readonly string[]): Promise<Map<string, StoredPrices>> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Array<{ project_id: string; entries: string; version: unknown; updated_at: unknown }> = await manager.query(
    `SELECT project_id, entries, version, updated_at FROM model_prices WHERE project_id IN (${sql.bindAll(projectIds)})`,
    sql.params,
  );
  return new Map(rows.map((row) => [row.project_id, { entries: JSON.parse(row.entries) as ModelPriceEntry[], version: Number(row.version), updatedAt: Number(row.updated_at) }]));
}

/** Replaces the project's entries; answers them as stored. */
export async function writeProjectPrices(manager: EntityManager, projectId: string, entries: ModelPriceEntry[], now: number): Promise<StoredPrices> {
  const sql = new SqlBuilder(dialectOf(manager));
  const [row]: Array<{ version: unknown }> = await manager.query(
    `INSERT INTO model_prices (project_id, entries, version, updated_at) VALUES (${sql.bind(projectId)}, ${sql.bind(JSON.stringify(entries))}, 1, ${sql.bind(now)})
       ON CONFLICT (project_id) DO UPDATE SET entries = excluded.entries, version = model_prices.version + 1, updated_at = excluded.updated_at
       RETURNING version`,
    sql.params,
  );
  return { entries, version: Number(row.version), updatedAt: now };
}
