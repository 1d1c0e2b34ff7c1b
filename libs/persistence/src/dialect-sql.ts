import type { QueryRunner } from 'typeorm';

export type Dialect = 'postgres' | 'sqlite';

export function dialectOf(runner: Pick<QueryRunner, 'connection'>): Dialect {
  return runner.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

/** Runs the statements written for the store's dialect, in order (for migrations that must differ). */
export async function runForDialect(runner: QueryRunner, statements: Record<Dialect, string[]>): Promise<void> {
  for (const sql of statements[dialectOf(runner)]) await runner.query(sql);
}

/**
 * Collects bound parameters while a statement is written, in the placeholder style of
 * the dialect (`$1` on PostgreSQL, `?` on SQLite, which is positional: bind in the order
 * the placeholders appear). Values only ever travel as parameters.
 */
export class SqlBuilder {
  readonly params: unknown[] = [];

  constructor(readonly dialect: Dialect) {}

  bind(value: unknown): string {
    this.params.push(value);
    return this.dialect === 'postgres' ? `$${this.params.length}` : '?';
  }

  /** A placeholder cast to `type`: where nothing else types it (PostgreSQL reads a bare parameter in VALUES as text). */
  bindAs(value: unknown, type: string): string {
    return `CAST(${this.bind(value)} AS ${type})`;
  }

  bindAll(values: readonly unknown[]): string {
    return values.map((v) => this.bind(v)).join(', ');
  }
}
