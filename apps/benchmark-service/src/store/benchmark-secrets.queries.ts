import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { BenchmarkSecret } from './benchmark-secret.entity';

export const insertBenchmarkSecrets = (tx: EntityManager, rows: BenchmarkSecret[]): Promise<void> => insertRows(tx, BenchmarkSecret, rows);
