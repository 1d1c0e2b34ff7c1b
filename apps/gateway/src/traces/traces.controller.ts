import { BusClient, JsonText } from '@cinetrace/bus';
import {
  IngestReceiptsReply,
  ListEnvelope,
  Patterns,
  ProjectContext,
  TraceAcceptedView,
  TraceBatchView,
  TraceListRequest,
  TraceSummaryView,
  TraceView,
} from '@cinetrace/contracts';
import { Body, Controller, Get, Headers, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiresScope } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { MAX_BATCH_TRACES, checkBatchBody } from './trace-batch';
import { Accepted, TraceIngestor } from './trace-ingestor';
import { ingestOneTrace } from './ingest-one-trace';
import { preferredWaitMs } from '../http/prefer-wait';
import { Idempotent } from '../idempotency/idempotent.decorator';

const LIST_FILTERS = {
  projectId: 'string',
  status: 'string',
  name: 'string',
  userId: 'string',
  sessionId: 'string',
  tags: 'string-list',
  metadata: 'object',
  from: 'time',
  to: 'time',
  scoreName: 'string',
  scoreMin: 'number',
  scoreMax: 'number',
  scoreValue: 'string',
} as const satisfies FilterSpec;

/** /api/v1/traces: ingest (to the trace stream) and reads (from trace-ingest), project scope. */
@ApiTags('Traces')
@Controller('api/v1/traces')
export class TracesController {
  constructor(
    private readonly ingestor: TraceIngestor,
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @RequiresScope('ingest')
  @ApiOperation({ operationId: 'ingestTrace', summary: 'Ingest a trace (new, or merged into the stored one with the same id)' })
  @ApiHeader({ name: 'Prefer', required: false, description: '`wait`: answer 201 once the trace is stored and readable' })
  @ApiBody({ schema: { type: 'object', description: 'A trace (see the API reference)' } })
  @ApiResponse({ status: 202, type: TraceAcceptedView })
  @ApiResponse({ status: 201, type: TraceAcceptedView })
  async ingest(
    @Caller() ctx: ProjectContext,
    @Body() body: unknown,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TraceAcceptedView> {
    // Without an Idempotency-Key, the fast path (trace-ingest-fast-path.ts) answers before this runs.
    return ingestOneTrace(this.ingestor, ctx, body, prefer, reply);
  }

  @Post('batch')
  @Idempotent()
  @RequiresScope('ingest')
  @ApiOperation({ operationId: 'ingestTraceBatch', summary: `Ingest up to ${MAX_BATCH_TRACES} traces; each item is accepted or rejected on its own` })
  @ApiHeader({ name: 'Prefer', required: false, description: '`wait`: answer once every accepted trace is stored' })
  @ApiBody({ schema: { type: 'object', properties: { traces: { type: 'array', items: { type: 'object' } } } } })
  @ApiResponse({ status: 207, type: TraceBatchView })
  async ingestBatch(
    @Caller() ctx: ProjectContext,
    @Body() body: unknown,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TraceBatchView> {
    const items = checkBatchBody(body);
    const checked = await this.ingestor.checkBatch(ctx, items);
    const valid = checked.flatMap((c) => (c.ok ? [c.trace] : []));
    const waitMs = preferredWaitMs(prefer);
    const accepted: Accepted[] = valid.length ? await this.ingestor.publish(ctx, valid, { awaited: waitMs !== undefined }) : [];
    let stored: IngestReceiptsReply | undefined;
    if (waitMs !== undefined && accepted.length) {
      stored = await this.ingestor.waitStored(
        ctx,
        accepted.map((a) => a.ingestId),
        waitMs,
      );
      if (stored) reply.header('preference-applied', 'wait');
    } else if (waitMs !== undefined) {
      reply.header('preference-applied', 'wait');
    }
    reply.status(207);
    let next = 0;
    const results = checked.map((c, index) => {
      if (c.ok) {
        const { ingestId, trace } = accepted[next++];
        // Stored and waited for: what the trace limits left out of this item, as POST /traces answers it.
        const dropped = stored?.[ingestId]?.dropped;
        return { index, id: trace.id, result: 'accepted' as const, ...(dropped ? { dropped } : {}) };
      }
      const raw = items[index] as { id?: unknown } | null;
      const id = raw && typeof raw === 'object' && typeof raw.id === 'string' ? raw.id : null;
      return { index, id, result: 'rejected' as const, errors: c.errors };
    });
    return { accepted: accepted.length, rejected: items.length - accepted.length, items: results };
  }

  @Get()
  @ApiOperation({
    operationId: 'listTraces',
    summary:
      'List trace summaries, newest startTime first (filters: projectId, status, name, userId, sessionId, tags, metadata, from, to; scoreName with scoreMin/scoreMax or scoreValue: its latest score)',
  })
  @ApiListResponse(TraceSummaryView, LIST_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<TraceSummaryView> | JsonText> {
    // As trace-ingest wrote the items (summaryViewJson): not parsed and serialized again here.
    return this.lists.respondText('traces', ctx, query, LIST_FILTERS, (filters, page: TraceListRequest['page']) => this.bus.request(Patterns.TraceList, { ctx, filters, page }));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getTrace', summary: 'Get a trace with its spans, ordered by startTime, each with depth and durationMs' })
  @ApiResponse({ status: 200, type: TraceView })
  get(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<TraceView | JsonText> {
    // As trace-ingest wrote it: the largest answer is not parsed and serialized again here.
    return this.bus.requestAnswer(Patterns.TraceGet, { ctx, id });
  }
}
