import { BusClient } from '@cinetrace/bus';
import { ListEnvelope, Patterns, ProjectContext, ScoreConfigView, type ScoreConfigListRequest } from '@cinetrace/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Caller } from '../auth/caller';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { ApiListResponse } from '../lists/api-list-response';
import { ListResponder } from '../lists/list-responder';

/** /api/v1/score-configs: what a score of a name must be (numeric within a range, boolean, one of some categories). Thin: trace-ingest keeps them. */
@ApiTags('Scores')
@Controller('api/v1/score-configs')
export class ScoreConfigsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createScoreConfig', summary: 'Create a score config; its name is unique in the project (409), its type and range never change' })
  @ApiBody({ schema: { $ref: '#/components/schemas/ScoreConfigInput' } })
  @ApiResponse({ status: 201, type: ScoreConfigView })
  create(@Caller() ctx: ProjectContext, @Body() input: unknown): Promise<ScoreConfigView> {
    return this.bus.request(Patterns.ScoreConfigCreate, { ctx, input });
  }

  @Get()
  @ApiOperation({ operationId: 'listScoreConfigs', summary: "The project's score configs, oldest first (archived ones included)" })
  @ApiListResponse(ScoreConfigView)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<ScoreConfigView>> {
    return this.lists.respond('score-configs', ctx, query, {}, (_filters, page: ScoreConfigListRequest['page']) => this.bus.request(Patterns.ScoreConfigList, { ctx, page }));
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updateScoreConfig', summary: "Change a score config's description, or archive it (an archived config no longer checks scores by their name)" })
  @ApiBody({ schema: { $ref: '#/components/schemas/ScoreConfigChangeInput' } })
  @ApiResponse({ status: 200, type: ScoreConfigView })
  update(@Caller() ctx: ProjectContext, @Param('id') id: string, @Body() input: unknown): Promise<ScoreConfigView> {
    return this.bus.request(Patterns.ScoreConfigUpdate, { ctx, id, input });
  }
}
