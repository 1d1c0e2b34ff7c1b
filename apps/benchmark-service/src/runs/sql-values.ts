import type { EntityManager } from 'typeorm';

/**
 * Parameters for a hand-written statement in either dialect: `$n` on PostgreSQL, `?` on
 * SQLite, each cast to its SQL type (PostgreSQL reads a bare parameter in VALUES as text).
 */
export class SqlParameters {
  readonly values: unknown[] = [];
  private readonly postgres: boolean;

  constructor(tx: EntityManager) {
    this.postgres = tx.connection.options.type === 'postgres';
  }

  /** A placeholder for `value`, cast to `type`; add them in the order they appear in the statement (SQLite's `?` are positional). */
  add(value: unknown, type: string): string {
    this.values.push(value);
    return `CAST(${this.postgres ? `$${this.values.length}` : '?'} AS ${type})`;
  }
}
