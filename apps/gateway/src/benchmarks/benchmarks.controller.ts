import { BusClient } from '@cinetrace/bus';
import {
  BenchmarkCreateRequest,
  BenchmarkListRequest,
  BenchmarkRequest,
  BenchmarkView,
  CreateBenchmarkInput,
  DeletedView,
  ListEnvelope,
  Patterns,
  ProjectContext,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller } from '../auth/caller';
import { ListResponder } from '../lists/list-responder';

/** /api/v1/benchmarks: project scope; a thin adapter to benchmark-service. */
@ApiTags('Benchmarks')
@ApiSecurity('bearer')
@ApiHeader({ name: 'X-Project-Key', required: true })
@Controller('api/v1/benchmarks')
export class BenchmarksController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ summary: 'Create a benchmark: a dataset of the project, scorers, a target and runner settings' })
  @ApiResponse({ status: 201, type: BenchmarkView })
  @ApiBody({ type: CreateBenchmarkInput })
  async create(@Caller() ctx: ProjectContext, @Body() input: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    // benchmark-service validates it: with the dataset and scorer checks, every error comes in one answer.
    const benchmark = await this.bus.request<BenchmarkView>(Patterns.BenchmarkCreate, { ctx, input: input as CreateBenchmarkInput } satisfies BenchmarkCreateRequest);
    reply.header('location', `/api/v1/benchmarks/${benchmark.id}`);
    return benchmark;
  }

  @Get()
  @ApiOperation({ summary: 'List benchmarks, newest first (filter: status)' })
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<BenchmarkView>> {
    return this.lists.respond('benchmarks', ctx, query, { status: 'string' }, (filters, page) =>
      this.bus.request(Patterns.BenchmarkList, { ctx, filters, page } as BenchmarkListRequest),
    );
  }

  @Get(':id')
  @ApiResponse({ status: 200, type: BenchmarkView })
  get(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<BenchmarkView> {
    return this.bus.request(Patterns.BenchmarkGet, { ctx, id } satisfies BenchmarkRequest);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a benchmark (its dataset is free to delete afterwards)' })
  @ApiResponse({ status: 200, type: DeletedView })
  delete(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<DeletedView> {
    return this.bus.request(Patterns.BenchmarkDelete, { ctx, id } satisfies BenchmarkRequest);
  }
}
