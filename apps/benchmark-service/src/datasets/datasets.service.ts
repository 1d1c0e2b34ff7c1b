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
import { insertRows, inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { Benchmark } from '../store/benchmark.entity';
import { DatasetItem } from '../store/dataset-item.entity';
import { Dataset } from '../store/dataset.entity';
import { lockDataset } from '../store/lock-dataset';
import { toDatasetView, toItemView } from './dataset.views';

/** Concurrent appends: the loser of the version compare-and-set re-reads and numbers its items after the winner's. */
const APPEND_ATTEMPTS = 20;
/** SQLite binds at most 32766 parameters per statement; an item row takes 8. */
const ITEMS_PER_INSERT = 500;

class LostAppendRace extends Error {}

/** Datasets and their items; every query is scoped by the caller's project. */
@Injectable()
export class DatasetsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
      await insertRows(tx, Dataset, dataset);
      await insertItems(tx, dataset.id, 0, 1, items, now);
    });
    return toDatasetView(dataset);
  }

  async addItems(ctx: ProjectContext, id: string, input: AddDatasetItemsInput): Promise<DatasetItemsAddedView> {
    if (!input.items.length) throw DomainError.validation([{ path: 'items', message: 'must hold at least one item' }]);
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.dataSource, (tx) => this.appendOnce(tx, ctx, id, input.items));
      } catch (err) {
        if (!(err instanceof LostAppendRace) || attempt >= APPEND_ATTEMPTS) throw err;
      }
    }
  }

  async get(ctx: ProjectContext, id: string): Promise<DatasetView> {
    return toDatasetView(await findDataset(this.dataSource.manager, ctx, id));
  }

  async list(ctx: ProjectContext, filters: DatasetListFilters, page: PageRequest<DatasetListKey>): Promise<Page<DatasetView, DatasetListKey>> {
    const query = this.dataSource
      .getRepository(Dataset)
      .createQueryBuilder('d')
      .where('d.project_id = :projectId', { projectId: ctx.projectId })
      .orderBy('d.id', 'DESC')
      .limit(rowsForPage(page));
    if (filters.name !== undefined) query.andWhere('d.name = :name', { name: filters.name });
    if (page.after !== undefined) query.andWhere('d.id < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.id);
    return { items: items.map(toDatasetView), nextKey };
  }

  async items(ctx: ProjectContext, id: string, page: PageRequest<DatasetItemKey>): Promise<Page<DatasetItemView, DatasetItemKey>> {
    await findDataset(this.dataSource.manager, ctx, id);
    const query = this.dataSource.getRepository(DatasetItem).createQueryBuilder('i').where('i.dataset_id = :id', { id }).orderBy('i.idx', 'ASC').limit(rowsForPage(page));
    if (page.after !== undefined) query.andWhere('i.idx > :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.index);
    return { items: items.map(toItemView), nextKey };
  }

  async delete(ctx: ProjectContext, id: string): Promise<DeletedView> {
    await inTransaction(this.dataSource, async (tx) => {
      if (!(await lockDataset(tx, ctx, id))) throw DomainError.notFound(`No dataset with id '${id}' in this project`);
      const user = await tx.findOneBy(Benchmark, { datasetId: id, deletedAt: IsNull() });
      if (user) throw new DomainError(ErrorCode.Conflict, `The dataset is used by benchmark '${user.id}'; delete that first`);
      await tx.delete(DatasetItem, { datasetId: id });
      await tx.delete(Dataset, { id, projectId: ctx.projectId });
    });
    return { id, deleted: true };
  }

  private async appendOnce(tx: EntityManager, ctx: ProjectContext, id: string, items: DatasetItemInput[]): Promise<DatasetItemsAddedView> {
    const dataset = await findDataset(tx, ctx, id);
    const now = Date.now();
    const version = dataset.version + 1;
    const itemCount = dataset.itemCount + items.length;
    const result = await tx
      .createQueryBuilder()
      .update(Dataset)
      .set({ version, itemCount, updatedAt: now })
      .where('id = :id AND version = :version', { id, version: dataset.version })
      .execute();
    if (!result.affected) throw new LostAppendRace();
    await insertItems(tx, id, dataset.itemCount, version, items, now);
    return { added: items.length, itemCount, version };
  }
}

async function findDataset(manager: EntityManager, ctx: ProjectContext, id: string): Promise<Dataset> {
  const dataset = await manager.findOneBy(Dataset, { id, projectId: ctx.projectId });
  if (!dataset) throw DomainError.notFound(`No dataset with id '${id}' in this project`);
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
  for (let i = 0; i < rows.length; i += ITEMS_PER_INSERT) await insertRows(tx, DatasetItem, rows.slice(i, i + ITEMS_PER_INSERT));
}
