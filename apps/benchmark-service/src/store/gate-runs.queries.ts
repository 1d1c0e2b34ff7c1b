import type { EntityManager } from 'typeorm';
import { LessThanOrEqual, Not } from 'typeorm';
import { DatasetItem } from './dataset-item.entity';
import { Run } from './run.entity';

/** The completed runs of the benchmark that rendered this prompt version. */
type RunsOfPrompt = Pick<Run, 'projectId' | 'benchmarkId'> & { promptId: string; promptVersion: number };

/** How many items the dataset held at `version` (items are only appended, each with the version it arrived in). */
export const datasetItemsAt = (manager: EntityManager, datasetId: string, version: number): Promise<number> =>
  manager.countBy(DatasetItem, { datasetId, version: LessThanOrEqual(version) });

/** Those runs over all `items` of the dataset at `datasetVersion`, newest first: the runs a gate counts. */
export const wholeRunsOfPrompt = (manager: EntityManager, where: RunsOfPrompt, dataset: { id: string; version: number; items: number }, limit: number): Promise<Run[]> =>
  manager.find(Run, {
    where: { ...where, status: 'completed', datasetId: dataset.id, datasetVersion: dataset.version, total: dataset.items },
    order: { id: 'DESC' },
    take: limit,
  });

/** The newest of those runs that is not one of them (a subset, or another dataset version), or null. */
export const newestPartialRunOfPrompt = (manager: EntityManager, where: RunsOfPrompt, dataset: { id: string; version: number; items: number }): Promise<Run | null> => {
  const completed = { ...where, status: 'completed' as const };
  return manager.findOne(Run, {
    where: [
      { ...completed, datasetId: Not(dataset.id) },
      { ...completed, datasetVersion: Not(dataset.version) },
      { ...completed, total: Not(dataset.items) },
    ],
    order: { id: 'DESC' },
  });
};
