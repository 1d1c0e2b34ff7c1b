import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DEFAULT_MODEL_PRICES } from './default-model-prices';
import { readPrices } from './model-prices.store';
import { PriceTable, PriceTableDefaults } from './price-table';

/**
 * How long a project's table is used before its version is read again. A PUT answered by
 * this instance applies to what it stores next; another instance (several consume the
 * stream in the distributed mode) takes it up within this time.
 */
export const PRICE_TABLE_TTL_MS = 5_000;

/** Projects whose tables are kept; a project past them is read again when it comes back. */
const PROJECTS_KEPT = 10_000;

interface CachedTable {
  table: PriceTable;
  /** The stored version compiled; 0 for a project without entries (the defaults alone). */
  version: number;
  readAt: number;
}

/**
 * Each project's price table for the ingest path: compiled once per version of its entries,
 * and read from the store at most every PRICE_TABLE_TTL_MS (one query for all the projects of
 * a batch that are due). Projects without entries share the defaults' table, and with it
 * the prices it worked out per model.
 */
@Injectable()
export class ModelPriceTables {
  private readonly defaults = new PriceTableDefaults(DEFAULT_MODEL_PRICES);
  readonly defaultsOnly = PriceTable.of([], this.defaults);
  private readonly cache = new Map<string, CachedTable>();
  /** The clock the TTL runs on (a spec sets its own). */
  now: () => number = Date.now;

  /** The tables of these projects, read from `manager` (the batch's transaction) where due. */
  async tablesFor(manager: EntityManager, projectIds: Iterable<string>): Promise<Map<string, PriceTable>> {
    const now = this.now();
    const tables = new Map<string, PriceTable>();
    const due = new Set<string>();
    for (const projectId of projectIds) {
      if (tables.has(projectId)) continue;
      const cached = this.cache.get(projectId);
      if (cached && now - cached.readAt < PRICE_TABLE_TTL_MS) tables.set(projectId, cached.table);
      else due.add(projectId);
    }
    if (!due.size) return tables;
    const stored = await readPrices(manager, [...due]);
    for (const projectId of due) {
      const entries = stored.get(projectId);
      const version = entries?.version ?? 0;
      const cached = this.cache.get(projectId);
      const table = cached?.version === version ? cached.table : version === 0 ? this.defaultsOnly : PriceTable.of(entries!.entries, this.defaults);
      this.remember(projectId, { table, version, readAt: now });
      tables.set(projectId, table);
    }
    return tables;
  }

  /** After a PUT here: the next batch reads the project's entries again. */
  forget(projectId: string): void {
    this.cache.delete(projectId);
  }

  private remember(projectId: string, entry: CachedTable): void {
    this.cache.delete(projectId);
    if (this.cache.size >= PROJECTS_KEPT) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(projectId, entry);
  }
}
