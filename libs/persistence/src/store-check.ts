import type { DataSource } from 'typeorm';

/** Readiness of a service's store: a trivial query answers. */
export function storeAnswers(dataSource: DataSource): () => Promise<boolean> {
  return () => dataSource.query('SELECT 1').then(() => true);
}
