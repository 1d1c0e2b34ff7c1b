import type { QueryRunner } from 'typeorm';

export type Dialect = 'postgres' | 'sqlite';

export function dialectOf(runner: Pick<QueryRunner, 'connection'>): Dialect {
  return runner.connection.options.type === 'postgres' ? 'postgres' : 'sqlite';
}

/** Runs the statements written for the store's dialect, in order (for migrations that must differ). */
export async function runForDialect(runner: QueryRunner, statements: Record<Dialect, string[]>): Promise<void> {
  for (const sql of statements[dialectOf(runner)]) await runner.query(sql);
}
