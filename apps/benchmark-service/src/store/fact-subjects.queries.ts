import { In, LessThanOrEqual, type EntityManager } from 'typeorm';
import { BenchmarkSecret } from './benchmark-secret.entity';
import { Benchmark } from './benchmark.entity';
import { DatasetItem } from './dataset-item.entity';
import { Dataset } from './dataset.entity';
import { Run } from './run.entity';

// The rows the facts of the outbox are read from when they are sent: live or deleted alike.

export const benchmarksById = async (manager: EntityManager, ids: readonly string[]): Promise<Benchmark[]> => (ids.length ? manager.findBy(Benchmark, { id: In([...ids]) }) : []);

export const datasetsById = async (manager: EntityManager, ids: readonly string[]): Promise<Dataset[]> => (ids.length ? manager.findBy(Dataset, { id: In([...ids]) }) : []);

export const completedPromptRunsById = async (manager: EntityManager, ids: readonly string[]): Promise<Run[]> =>
  ids.length ? manager.findBy(Run, { id: In([...ids]), status: 'completed' }) : [];

export const secretsOfBenchmarks = async (manager: EntityManager, ids: readonly string[]): Promise<BenchmarkSecret[]> =>
  ids.length ? manager.findBy(BenchmarkSecret, { benchmarkId: In([...ids]) }) : [];

/** How many items the dataset held at `version` (items are only appended, each with the version it arrived in). */
export const datasetItemsAt = (manager: EntityManager, datasetId: string, version: number): Promise<number> =>
  manager.countBy(DatasetItem, { datasetId, version: LessThanOrEqual(version) });
