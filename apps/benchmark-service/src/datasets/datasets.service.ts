import {
  AddDatasetItemsInput,
  CreateDatasetInput,
  DatasetItemInput,
  DatasetItemKey,
  DatasetItemsAddedView,
  DatasetItemView,
  DatasetListFilters,
  DatasetListKey,
  DatasetView,
  DeletedView,
  DomainError,
  ErrorCode,
  Page,
  PageRequest,
  ProjectContext,
  rowsForPage,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { findLiveBenchmarkOnDataset } from '../store/benchmarks.queries';
import { DatasetItem } from '../store/dataset-item.entity';
import { deleteDatasetItems, insertDatasetItems, listDatasetItems } from '../store/dataset-items.queries';
import { Dataset } from '../store/dataset.entity';
import { advanceDatasetVersion, deleteDataset, findDataset, insertDataset, listDatasets, lockDataset } from '../store/datasets.queries';
import { queueBenchmarksOnDataset } from '../store/fact-outbox';
import { FactRelay } from '../facts/fact-relay';
import { toDatasetView, toItemView } from './dataset.views';

/** Concurrent appends: the loser of the version compare-and-set re-reads and numbers its items after the winner's. */
const APPEND_ATTEMPTS = 20;

class LostAppendRace extends Error {}

/** Datasets and their items; every query is scoped by the caller's project. */
@Injectable()
export class DatasetsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly facts: FactRelay,
  ) {}

  async create(ctx: ProjectContext, input: CreateDatasetInput): Promise<DatasetView> {
    const now = Date.now();
    const items = input.items ?? [];
    const dataset: Dataset = {
      id: newId('ds'),
      projectId: ctx.projectId,
      name: input.name,
      description: input.description ?? '',
      itemCount: items.length,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    await inTransaction(this.dataSource, async (tx) => {
      await insertDataset(tx, dataset);
      await insertItems(tx, dataset.id, 0, 1, items, now);
    });
    return toDatasetView(dataset);
  }

  async addItems(ctx: ProjectContext, id: string, input: AddDatasetItemsInput): Promise<DatasetItemsAddedView> {
    if (!input.items.length) throw DomainError.validation([{ path: 'items', message: 'must hold at least one item' }]);
    for (let attempt = 1; ; attempt++) {
      try {
        const added = await inTransaction(this.dataSource, (tx) => this.appendOnce(tx, ctx, id, input.items));
        await this.facts.flush();
        return added;
      } catch (err) {
        if (!(err instanceof LostAppendRace) || attempt >= APPEND_ATTEMPTS) throw err;
      }
    }
  }

  async get(ctx: ProjectContext, id: string): Promise<DatasetView> {
    return toDatasetView(await existingDataset(this.dataSource.manager, ctx, id));
  }

  async list(ctx: ProjectContext, filters: DatasetListFilters, page: PageRequest<DatasetListKey>): Promise<Page<DatasetView, DatasetListKey>> {
    const rows = await listDatasets(this.dataSource.manager, ctx.projectId, { name: filters.name }, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toDatasetView), nextKey };
  }

  async items(ctx: ProjectContext, id: string, page: PageRequest<DatasetItemKey>): Promise<Page<DatasetItemView, DatasetItemKey>> {
    await existingDataset(this.dataSource.manager, ctx, id);
    const rows = await listDatasetItems(this.dataSource.manager, id, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.index);
    return { items: items.map(toItemView), nextKey };
  }

  async delete(ctx: ProjectContext, id: string): Promise<DeletedView> {
    await inTransaction(this.dataSource, async (tx) => {
      if (!(await lockDataset(tx, ctx.projectId, id))) throw notFound(id);
      const user = await findLiveBenchmarkOnDataset(tx, id);
      if (user) throw new DomainError(ErrorCode.Conflict, `The dataset is used by benchmark '${user.id}'; delete that first`);
      await deleteDatasetItems(tx, id);
      await deleteDataset(tx, ctx.projectId, id);
    });
    return { id, deleted: true };
  }

  private async appendOnce(tx: EntityManager, ctx: ProjectContext, id: string, items: DatasetItemInput[]): Promise<DatasetItemsAddedView> {
    const dataset = await existingDataset(tx, ctx, id);
    const now = Date.now();
    const version = dataset.version + 1;
    const itemCount = dataset.itemCount + items.length;
    if (!(await advanceDatasetVersion(tx, id, dataset.version, { version, itemCount, updatedAt: now }))) throw new LostAppendRace();
    await insertItems(tx, id, dataset.itemCount, version, items, now);
    // The version a new gate on its benchmarks counts (prompt-service keeps it).
    await queueBenchmarksOnDataset(tx, id);
    return { added: items.length, itemCount, version };
  }
}

const notFound = (id: string) => DomainError.notFound(`No dataset with id '${id}' in this project`);

async function existingDataset(manager: EntityManager, ctx: ProjectContext, id: string): Promise<Dataset> {
  const dataset = await findDataset(manager, ctx.projectId, id);
  if (!dataset) throw notFound(id);
  return dataset;
}

async function insertItems(tx: EntityManager, datasetId: string, firstIndex: number, version: number, items: DatasetItemInput[], now: number): Promise<void> {
  const rows: DatasetItem[] = items.map((item, i) => ({
    datasetId,
    index: firstIndex + i,
    id: newId('dsi'),
    input: item.input,
    expected: item.expected,
    metadata: item.metadata ?? {},
    version,
    createdAt: now,
  }));
  await insertDatasetItems(tx, rows);
}
