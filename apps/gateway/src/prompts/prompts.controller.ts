import { BusClient } from '@cinetrace/bus';
import {
  CreatePromptInput,
  DeletedPromptView,
  ListEnvelope,
  Patterns,
  ProjectContext,
  PromptActivityView,
  PromptDeleteRequest,
  PromptGetRequest,
  PromptHistoryRequest,
  PromptListRequest,
  PromptUpdateRequest,
  PromptVersionView,
  PromptView,
  UpdatePromptInput,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller } from '../auth/caller';
import { parseIfMatch, versionETag } from '../http/if-match';
import { parseResourceQuery } from '../http/resource-query';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';

const PROMPT_FILTERS = { type: 'string', label: 'string', q: 'string', includeDeleted: 'boolean' } as const satisfies FilterSpec;

type Reply = FastifyReply;

/** /api/v1/prompts: project scope. Thin: validates, then asks prompt-service; adds ETag and Location. */
@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({ operationId: 'createPrompt', summary: 'Create a prompt (version 1); the identifier is derived from the name when omitted' })
  @ApiResponse({ status: 201, type: PromptView })
  async create(@Caller() ctx: ProjectContext, @Body() input: CreatePromptInput, @Res({ passthrough: true }) reply: Reply) {
    const prompt = await this.bus.request(Patterns.PromptCreate, { ctx, input });
    reply.header('location', `/api/v1/prompts/${prompt.id}`);
    return withETag(reply, prompt);
  }

  @Get()
  @ApiOperation({ operationId: 'listPrompts', summary: 'List prompts, newest first (filters: type, label, q, includeDeleted)' })
  @ApiListResponse(PromptView, PROMPT_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<PromptView>> {
    return this.lists.respond('prompts', ctx, query, PROMPT_FILTERS, (filters, page: PromptListRequest['page']) =>
      this.bus.request(Patterns.PromptList, { ctx, filters, page }),
    );
  }

  @Get('by-identifier/:identifier')
  @ApiOperation({ operationId: 'getPromptByIdentifier', summary: 'Get the live prompt with this identifier (latest, or ?version=N)' })
  @ApiQuery({ name: 'version', required: false, type: Number })
  @ApiResponse({ status: 200, type: PromptView })
  async byIdentifier(
    @Caller() ctx: ProjectContext,
    @Param('identifier') identifier: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const { version } = parseResourceQuery(query, { version: 'positive-int' });
    const request: PromptGetRequest = { ctx, identifier, version };
    return withETag(reply, await this.bus.request(Patterns.PromptGet, request));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getPrompt', summary: 'Get a prompt (latest, or ?version=N; ?includeDeleted=true shows a deleted one)' })
  @ApiQuery({ name: 'version', required: false, type: Number })
  @ApiQuery({ name: 'includeDeleted', required: false, type: Boolean })
  @ApiResponse({ status: 200, type: PromptView })
  async get(
    @Caller() ctx: ProjectContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const { version, includeDeleted } = parseResourceQuery(query, { version: 'positive-int', includeDeleted: 'boolean' });
    const request: PromptGetRequest = { ctx, id, version, includeDeleted };
    return withETag(reply, await this.bus.request(Patterns.PromptGet, request));
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updatePrompt', summary: 'Change name, content, labels or metadata; a change writes a new version' })
  @ApiHeader({ name: 'If-Match', required: false, description: 'The version the change applies to, as "<version>"' })
  @ApiResponse({ status: 200, type: PromptView })
  async update(
    @Caller() ctx: ProjectContext,
    @Param('id') id: string,
    @Body() input: UpdatePromptInput,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const request: PromptUpdateRequest = { ctx, id, input, ifMatch: parseIfMatch(ifMatch) };
    return withETag(reply, await this.bus.request(Patterns.PromptUpdate, request));
  }

  @Delete(':id')
  @ApiOperation({ operationId: 'deletePrompt', summary: 'Soft-delete a prompt; its identifier is free again, its history stays readable' })
  @ApiHeader({ name: 'If-Match', required: false })
  @ApiResponse({ status: 200, type: DeletedPromptView })
  delete(@Caller() ctx: ProjectContext, @Param('id') id: string, @Headers('if-match') ifMatch: string | undefined) {
    const request: PromptDeleteRequest = { ctx, id, ifMatch: parseIfMatch(ifMatch) };
    return this.bus.request(Patterns.PromptDelete, request);
  }

  @Get(':id/versions')
  @ApiOperation({ operationId: 'listPromptVersions', summary: 'Versions of a prompt, newest first' })
  @ApiListResponse(PromptVersionView)
  versions(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<PromptVersionView>> {
    return this.lists.respond(`prompts/${id}/versions`, ctx, query, {}, (_, page: PromptHistoryRequest<number>['page']) =>
      this.bus.request(Patterns.PromptVersions, { ctx, id, page }),
    );
  }

  @Get(':id/activity')
  @ApiOperation({ operationId: 'listPromptActivity', summary: 'Activity of a prompt (created, updated, deleted), newest first' })
  @ApiListResponse(PromptActivityView)
  activity(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<PromptActivityView>> {
    return this.lists.respond(`prompts/${id}/activity`, ctx, query, {}, (_, page: PromptHistoryRequest<string>['page']) =>
      this.bus.request(Patterns.PromptActivity, { ctx, id, page }),
    );
  }
}

function withETag(reply: Reply, prompt: PromptView): PromptView {
  reply.header('etag', versionETag(prompt.version));
  return prompt;
}
