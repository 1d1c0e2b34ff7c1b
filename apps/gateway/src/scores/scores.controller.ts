import { BusClient } from '@cinetrace/bus';
import { DomainError, ListEnvelope, Patterns, ProjectContext, ScoreBatchView, ScoreView, type ScoreListRequest } from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { RequiresScope } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';

const SCORE_FILTERS = {
  traceId: 'string',
  spanId: 'string',
  name: 'string',
  source: 'string',
  configId: 'string',
  from: 'time',
  to: 'time',
} as const satisfies FilterSpec;

/**
 * /api/v1/scores: what a trace or a span was worth, kept by trace-ingest beside the traces.
 * Thin: trace-ingest checks each score (against the project's configs) and stores it. Writing
 * takes the `ingest` scope, as sending traces does: the client that traces often scores.
 */
@ApiTags('Scores')
@Controller('api/v1/scores')
export class ScoresController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @RequiresScope('ingest')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createScore',
    summary: 'Score a trace or one of its spans (the trace need not be stored yet); a client id sent again with the same body answers 200 with the stored score',
  })
  @ApiBody({ schema: { $ref: '#/components/schemas/ScoreInput' } })
  @ApiResponse({ status: 201, type: ScoreView, description: 'Stored' })
  @ApiResponse({ status: 200, type: ScoreView, description: 'A score of this client id and the same body was stored already: that score' })
  async create(@Caller() ctx: ProjectContext, @Body() input: unknown, @Res({ passthrough: true }) reply: FastifyReply): Promise<ScoreView> {
    const { score, created } = await this.bus.request(Patterns.ScoreCreate, { ctx, input });
    if (!created) reply.status(200);
    return score;
  }

  @Post('batch')
  @Idempotent()
  @RequiresScope('ingest')
  @HttpCode(207)
  @ApiOperation({ operationId: 'createScoreBatch', summary: 'Store up to 1000 scores; each item is accepted or rejected on its own' })
  @ApiBody({ schema: { $ref: '#/components/schemas/ScoreBatchInput' } })
  @ApiResponse({ status: 207, type: ScoreBatchView })
  batch(@Caller() ctx: ProjectContext, @Body() body: unknown): Promise<ScoreBatchView> {
    const scores = (body as { scores?: unknown } | null)?.scores;
    if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray(scores)) {
      throw DomainError.validation([{ path: 'scores', message: 'must be an array of at most 1000 scores' }]);
    }
    const extra = Object.keys(body).filter((key) => key !== 'scores');
    if (extra.length) throw DomainError.validation(extra.map((path) => ({ path, message: 'is not accepted here (unknown field)' })));
    return this.bus.request(Patterns.ScoreBatch, { ctx, items: scores });
  }

  @Get()
  @ApiOperation({ operationId: 'listScores', summary: 'List scores, newest first (filters: traceId, spanId, name, source, configId, from, to: their createdAt)' })
  @ApiListResponse(ScoreView, SCORE_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<ScoreView>> {
    return this.lists.respond('scores', ctx, query, SCORE_FILTERS, (filters, page: ScoreListRequest['page']) => this.bus.request(Patterns.ScoreList, { ctx, filters, page }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteScore', summary: 'Delete a score' })
  @ApiResponse({ status: 204, description: 'Deleted' })
  async delete(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<void> {
    await this.bus.request(Patterns.ScoreDelete, { ctx, id });
  }
}
