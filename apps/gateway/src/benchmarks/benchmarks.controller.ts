import { BusClient } from '@cinetrace/bus';
import {
  BenchmarkListRequest,
  BenchmarkView,
  CreateBenchmarkInput,
  DeletedView,
  ListEnvelope,
  Patterns,
  ProjectContext,
  RunListRequest,
  RunStartedView,
  RunSummaryView,
  RunStartRequest,
  RunView,
  StartRunInput,
  TaskListRequest,
  TaskPage,
  TaskView,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { Idempotent } from '../idempotency/idempotent.decorator';

const BENCHMARK_FILTERS = { status: 'string' } as const satisfies FilterSpec;
const TASK_FILTERS = { runId: 'string', status: 'string' } as const satisfies FilterSpec;

/** /api/v1/benchmarks: project scope; a thin adapter to benchmark-service. */
@ApiTags('Benchmarks')
@Controller('api/v1/benchmarks')
export class BenchmarksController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createBenchmark', summary: 'Create a benchmark: a dataset of the project, scorers, a target and runner settings' })
  @ApiResponse({ status: 201, type: BenchmarkView })
  @ApiBody({ type: CreateBenchmarkInput })
  async create(@Caller() ctx: ProjectContext, @Body() input: unknown, @Res({ passthrough: true }) reply: FastifyReply) {
    // benchmark-service validates it: with the dataset and scorer checks, every error comes in one answer.
    const benchmark = await this.bus.request(Patterns.BenchmarkCreate, { ctx, input: input as CreateBenchmarkInput });
    reply.header('location', `/api/v1/benchmarks/${benchmark.id}`);
    return benchmark;
  }

  @Get()
  @ApiOperation({ operationId: 'listBenchmarks', summary: 'List benchmarks, newest first (filter: status)' })
  @ApiListResponse(BenchmarkView, BENCHMARK_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<BenchmarkView>> {
    return this.lists.respond('benchmarks', ctx, query, BENCHMARK_FILTERS, (filters, page: BenchmarkListRequest['page']) =>
      this.bus.request(Patterns.BenchmarkList, { ctx, filters, page }),
    );
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getBenchmark', summary: 'Get a benchmark with its status and last run' })
  @ApiResponse({ status: 200, type: BenchmarkView })
  get(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<BenchmarkView> {
    return this.bus.request(Patterns.BenchmarkGet, { ctx, id });
  }

  @Post(':id/start')
  @Idempotent()
  @HttpCode(202)
  @ApiOperation({ operationId: 'startBenchmarkRun', summary: 'Start a run: its tasks are the dataset items as they are now (or rowSubset of them)' })
  @ApiResponse({ status: 202, type: RunStartedView })
  @ApiResponse({ status: 409, description: 'run_in_progress: a run of this benchmark is queued or running' })
  @ApiResponse({ status: 429, description: 'quota_exceeded: QUOTA_ACTIVE_RUNS, QUOTA_TASKS_PER_RUN or QUOTA_STARTS_PER_HOUR' })
  @ApiBody({ type: StartRunInput, required: false })
  async start(@Caller() ctx: ProjectContext, @Param('id') id: string, @Body() input: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<RunStartedView> {
    // A start may come without a body; benchmark-service validates the body it gets.
    const request: RunStartRequest = { ctx, benchmarkId: id, input: (input ?? {}) as StartRunInput };
    const run = await this.bus.request(Patterns.RunStart, request);
    reply.header('location', `/api/v1/benchmarks/${id}/tasks?runId=${run.id}`);
    return run;
  }

  @Get(':id/runs')
  @ApiOperation({ operationId: 'listBenchmarkRuns', summary: "List a benchmark's runs, newest first" })
  @ApiListResponse(RunView)
  runs(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<RunView>> {
    return this.lists.respond(`benchmarks/${id}/runs`, ctx, query, {}, (_filters, page: RunListRequest['page']) =>
      this.bus.request(Patterns.RunList, { ctx, benchmarkId: id, page }),
    );
  }

  @Get(':id/tasks')
  @ApiOperation({ operationId: 'listBenchmarkTasks', summary: "List a run's tasks in dataset order (default: the latest run), with the run's summary" })
  @ApiListResponse(TaskView, TASK_FILTERS, { summary: RunSummaryView })
  async tasks(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<TaskView> & { summary: TaskPage['summary'] }> {
    let summary: TaskPage['summary'] = null;
    const envelope = await this.lists.respond(`benchmarks/${id}/tasks`, ctx, query, TASK_FILTERS, async (filters, page: TaskListRequest['page']) => {
      const reply = await this.bus.request(Patterns.TaskList, { ctx, benchmarkId: id, filters, page });
      summary = reply.summary;
      return reply;
    });
    return { ...envelope, summary };
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deleteBenchmark', summary: 'Delete a benchmark: an active run is cancelled (its dataset is free to delete afterwards)' })
  @ApiResponse({ status: 200, type: DeletedView })
  delete(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<DeletedView> {
    return this.bus.request(Patterns.BenchmarkDelete, { ctx, id });
  }
}
