import { BusClient } from '@cinetrace/bus';
import {
  AddDatasetItemsInput,
  CreateDatasetInput,
  DatasetItemsAddedView,
  DatasetItemsRequest,
  DatasetItemView,
  DatasetListRequest,
  DatasetView,
  DeletedView,
  ListEnvelope,
  Patterns,
  ProjectContext,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { Idempotent } from '../idempotency/idempotent.decorator';

const DATASET_FILTERS = { name: 'string' } as const satisfies FilterSpec;

const location = (id: string) => `/api/v1/datasets/${id}`;

/** /api/v1/datasets: project scope; a thin adapter to benchmark-service. */
@ApiTags('Datasets')
@Controller('api/v1/datasets')
export class DatasetsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createDataset', summary: 'Create a dataset, optionally with its first items (up to 1000)' })
  @ApiResponse({ status: 201, type: DatasetView })
  async create(@Caller() ctx: ProjectContext, @Body() input: CreateDatasetInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const dataset = await this.bus.request(Patterns.DatasetCreate, { ctx, input });
    reply.header('location', location(dataset.id));
    return dataset;
  }

  @Get()
  @ApiOperation({ operationId: 'listDatasets', summary: 'List datasets, newest first (filter: name)' })
  @ApiListResponse(DatasetView, DATASET_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<DatasetView>> {
    return this.lists.respond('datasets', ctx, query, DATASET_FILTERS, (filters, page: DatasetListRequest['page']) =>
      this.bus.request(Patterns.DatasetList, { ctx, filters, page }),
    );
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getDataset', summary: 'Get a dataset' })
  @ApiResponse({ status: 200, type: DatasetView })
  get(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<DatasetView> {
    return this.bus.request(Patterns.DatasetGet, { ctx, id });
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteDataset', summary: 'Delete a dataset and its items (409 while a benchmark uses it)' })
  @ApiResponse({ status: 200, type: DeletedView })
  delete(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<DeletedView> {
    return this.bus.request(Patterns.DatasetDelete, { ctx, id });
  }

  @Post(':id/items')
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ operationId: 'addDatasetItems', summary: 'Append items (up to 1000); the dataset version goes up by one' })
  @ApiResponse({ status: 201, type: DatasetItemsAddedView })
  addItems(@Caller() ctx: ProjectContext, @Param('id') id: string, @Body() input: AddDatasetItemsInput): Promise<DatasetItemsAddedView> {
    return this.bus.request(Patterns.DatasetItemsAdd, { ctx, id, input });
  }

  @Get(':id/items')
  @ApiOperation({ operationId: 'listDatasetItems', summary: 'Items of a dataset, oldest first' })
  @ApiListResponse(DatasetItemView)
  items(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<DatasetItemView>> {
    return this.lists.respond(`datasets/${id}/items`, ctx, query, {}, (_, page: DatasetItemsRequest['page']) => this.bus.request(Patterns.DatasetItems, { ctx, id, page }));
  }
}
