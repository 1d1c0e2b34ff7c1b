import { BusClient } from '@cinetrace/bus';
import {
  MoveReleaseInput,
  Patterns,
  ProjectContext,
  PromptReleaseListView,
  PromptReleaseMoveRequest,
  PromptReleaseRemoveRequest,
  PromptReleasesRequest,
  PromptReleaseView,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CallerIsAdmin } from '../auth/caller';

/**
 * /api/v1/prompts/{id}/releases: named pointers to versions. Moving one needs `write`;
 * prompt-service asks for `admin` when the move sets, changes or removes a gate (it
 * alone knows whether the gate changes), so the gateway tells it what the key may do.
 */
@ApiTags('Prompts')
@Controller('api/v1/prompts/:id/releases')
export class PromptReleasesController {
  constructor(private readonly bus: BusClient) {}

  @Get()
  @ApiOperation({ operationId: 'listPromptReleases', summary: 'Releases of a prompt (named pointers to versions), by name; one page' })
  @ApiResponse({ status: 200, type: PromptReleaseListView })
  list(@Caller() ctx: ProjectContext, @Param('id') id: string): Promise<PromptReleaseListView> {
    return this.bus.request(Patterns.PromptReleases, { ctx, id } satisfies PromptReleasesRequest);
  }

  @Put(':name')
  @ApiOperation({
    operationId: 'movePromptRelease',
    summary: 'Point a release at a version (create, move, roll back); a gated release moves only to a version that passed its benchmark (409 gate_failed)',
  })
  @ApiResponse({ status: 200, type: PromptReleaseView })
  move(
    @Caller() ctx: ProjectContext,
    @CallerIsAdmin() mayChangeGate: boolean,
    @Param('id') id: string,
    @Param('name') name: string,
    @Body() input: MoveReleaseInput,
  ): Promise<PromptReleaseView> {
    return this.bus.request(Patterns.PromptReleaseMove, { ctx, id, name, input, mayChangeGate } satisfies PromptReleaseMoveRequest);
  }

  @Delete(':name')
  @HttpCode(204)
  @ApiOperation({ operationId: 'removePromptRelease', summary: 'Remove a release (a gated one needs an admin key)' })
  @ApiResponse({ status: 204, description: 'Removed' })
  async remove(@Caller() ctx: ProjectContext, @CallerIsAdmin() mayChangeGate: boolean, @Param('id') id: string, @Param('name') name: string): Promise<void> {
    await this.bus.request(Patterns.PromptReleaseRemove, { ctx, id, name, mayChangeGate } satisfies PromptReleaseRemoveRequest);
  }
}
