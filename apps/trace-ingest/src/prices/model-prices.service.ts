import type { ModelPriceEntry, ModelPriceListView, ModelPricesGetRequest, ModelPricesPutRequest, ModelPriceSource, ModelPriceView } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { DEFAULT_MODEL_PRICES, DEFAULT_MODEL_PRICES_AS_OF } from './default-model-prices';
import { checkModelPricesInput } from './model-price-input';
import { ModelPriceTables } from './model-price-tables';
import { readProjectPrices, writeProjectPrices } from './model-prices.store';

const view = (entry: ModelPriceEntry, source: ModelPriceSource, asOf: string): ModelPriceView => ({
  match: entry.match,
  unit: entry.unit,
  usd: entry.usd,
  resolution: entry.resolution ?? null,
  source,
  asOf,
});

const DEFAULT_VIEWS = DEFAULT_MODEL_PRICES.map((entry) => view(entry, 'default', DEFAULT_MODEL_PRICES_AS_OF));

/** GET and PUT /api/v1/model-prices: a project's price entries, read from and written to the store (never the cache). */
@Injectable()
export class ModelPricesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tables: ModelPriceTables,
  ) {}

  /** The project's entries, then the shipped defaults. */
  async get({ ctx }: ModelPricesGetRequest): Promise<ModelPriceListView> {
    const stored = await readProjectPrices(this.dataSource.manager, ctx.projectId);
    const own = stored ? stored.entries.map((entry) => view(entry, 'project', new Date(stored.updatedAt).toISOString())) : [];
    return { data: [...own, ...DEFAULT_VIEWS], nextCursor: null };
  }

  /** Replaces the project's entries; spans stored from now on are priced by them. */
  async put({ ctx, input }: ModelPricesPutRequest): Promise<ModelPriceListView> {
    const entries = checkModelPricesInput(input);
    const stored = await writeProjectPrices(this.dataSource.manager, ctx.projectId, entries, Date.now());
    this.tables.forget(ctx.projectId);
    const asOf = new Date(stored.updatedAt).toISOString();
    return { data: stored.entries.map((entry) => view(entry, 'project', asOf)), nextCursor: null };
  }
}
