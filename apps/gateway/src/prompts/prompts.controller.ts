import { BusClient } from '@cinetrace/bus';
import {
  CreatePromptInput,
  DeletedPromptView,
  ListEnvelope,
  Patterns,
  ProjectContext,
  PromptActivityView,
  PromptDeleteRequest,
  PromptDiffView,
  PromptGetRequest,
  PromptHistoryRequest,
  PromptListRequest,
  PromptUpdateRequest,
  PromptVersionView,
  PromptView,
  RenderedPromptView,
  RenderPromptInput,
  DomainError,
  PROMPT_RELEASE_NAME_PATTERN,
  UpdatePromptInput,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Caller, CallerIsAdmin } from '../auth/caller';
import { RequiresScope } from '../auth/access.decorators';
import { ifNoneMatchHolds, parseIfMatch, promptETag } from './prompt-etag';
import { parseResourceQuery } from '../http/resource-query';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { Idempotent } from '../idempotency/idempotent.decorator';

const PROMPT_FILTERS = { type: 'string', label: 'string', q: 'string', includeDeleted: 'boolean' } as const satisfies FilterSpec;

type Reply = FastifyReply;

const IF_NONE_MATCH_DOC = { name: 'If-None-Match', required: false, description: 'The ETag a client holds, `"<prompt id>:<version>"`: when it is current, 304 with no body' };
const IF_MATCH_DOC = {
  name: 'If-Match',
  required: false,
  description: 'The version the change applies to, as its ETag `"<prompt id>:<version>"` (or `"<version>"`); a stale one is 412 precondition_failed',
};
const RELEASE_QUERY_DOC = { name: 'release', required: false, type: String, description: 'The version this release points at (`latest`: the newest); instead of version' };

/** /api/v1/prompts: project scope. Thin: validates, then asks prompt-service; adds ETag and Location. */
@ApiTags('Prompts')
@Controller('api/v1/prompts')
export class PromptsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createPrompt',
    summary:
      'Create a prompt (version 1); the identifier is derived from the name when omitted. Taking the identifier of a deleted prompt that had a gated release needs an admin key',
  })
  @ApiResponse({ status: 201, type: PromptView })
  async create(@Caller() ctx: ProjectContext, @CallerIsAdmin() mayChangeGate: boolean, @Body() input: CreatePromptInput, @Res({ passthrough: true }) reply: Reply) {
    const prompt = await this.bus.request(Patterns.PromptCreate, { ctx, input, mayChangeGate });
    reply.header('location', `/api/v1/prompts/${prompt.id}`);
    return withETag(reply, prompt);
  }

  @Get()
  @ApiOperation({ operationId: 'listPrompts', summary: 'List prompts, newest first (filters: type, label, q, includeDeleted)' })
  @ApiListResponse(PromptView, PROMPT_FILTERS)
  list(@Caller() ctx: ProjectContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<PromptView>> {
    return this.lists.respond('prompts', ctx, query, PROMPT_FILTERS, (filters, page: PromptListRequest['page']) => this.bus.request(Patterns.PromptList, { ctx, filters, page }));
  }

  @Get('by-identifier/:identifier')
  @ApiOperation({ operationId: 'getPromptByIdentifier', summary: 'Get the live prompt with this identifier (latest, ?version=N or ?release=name)' })
  @ApiQuery({ name: 'version', required: false, type: Number })
  @ApiQuery(RELEASE_QUERY_DOC)
  @ApiHeader(IF_NONE_MATCH_DOC)
  @ApiResponse({ status: 200, type: PromptView })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current version of this prompt' })
  async byIdentifier(
    @Caller() ctx: ProjectContext,
    @Param('identifier') identifier: string,
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const { version, release } = versionOrRelease(query, {});
    const request: PromptGetRequest = { ctx, identifier, version, release };
    return conditionally(reply, await this.bus.request(Patterns.PromptGet, request), ifNoneMatch);
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getPrompt', summary: 'Get a prompt (latest, ?version=N or ?release=name; ?includeDeleted=true shows a deleted one)' })
  @ApiQuery({ name: 'version', required: false, type: Number })
  @ApiQuery(RELEASE_QUERY_DOC)
  @ApiQuery({ name: 'includeDeleted', required: false, type: Boolean })
  @ApiHeader(IF_NONE_MATCH_DOC)
  @ApiResponse({ status: 200, type: PromptView })
  @ApiResponse({ status: 304, description: 'Not modified: If-None-Match names the current version of this prompt' })
  async get(
    @Caller() ctx: ProjectContext,
    @Param('id') id: string,
    @Query() query: Record<string, unknown>,
    @Headers('if-none-match') ifNoneMatch: string | undefined,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const { version, release, includeDeleted } = versionOrRelease(query, { includeDeleted: 'boolean' });
    const request: PromptGetRequest = { ctx, id, version, release, includeDeleted };
    return conditionally(reply, await this.bus.request(Patterns.PromptGet, request), ifNoneMatch);
  }

  @Put(':id')
  @ApiOperation({ operationId: 'updatePrompt', summary: 'Change name, content, labels or metadata; a change writes a new version' })
  @ApiHeader(IF_MATCH_DOC)
  @ApiResponse({ status: 200, type: PromptView })
  async update(
    @Caller() ctx: ProjectContext,
    @Param('id') id: string,
    @Body() input: UpdatePromptInput,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) reply: Reply,
  ) {
    const request: PromptUpdateRequest = { ctx, id, input, ifMatch: parseIfMatch(ifMatch, id) };
    return withETag(reply, await this.bus.request(Patterns.PromptUpdate, request));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deletePrompt',
    summary: 'Soft-delete a prompt; its history stays readable. A prompt with a gated release needs an admin key, and its identifier stays reserved to admin keys',
  })
  @ApiHeader(IF_MATCH_DOC)
  @ApiResponse({ status: 200, type: DeletedPromptView })
  delete(@Caller() ctx: ProjectContext, @CallerIsAdmin() mayChangeGate: boolean, @Param('id') id: string, @Headers('if-match') ifMatch: string | undefined) {
    const request: PromptDeleteRequest = { ctx, id, ifMatch: parseIfMatch(ifMatch, id), mayChangeGate };
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
  @ApiOperation({ operationId: 'listPromptActivity', summary: 'Activity of a prompt (created, updated, deleted, released), newest first' })
  @ApiListResponse(PromptActivityView)
  activity(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<PromptActivityView>> {
    return this.lists.respond(`prompts/${id}/activity`, ctx, query, {}, (_, page: PromptHistoryRequest<string>['page']) =>
      this.bus.request(Patterns.PromptActivity, { ctx, id, page }),
    );
  }

  @Get(':id/diff')
  @ApiOperation({ operationId: 'diffPromptVersions', summary: 'What changed from one version to another: fields as in activity, content as a unified diff' })
  @ApiQuery({ name: 'from', required: true, type: Number })
  @ApiQuery({ name: 'to', required: true, type: Number })
  @ApiResponse({ status: 200, type: PromptDiffView })
  diff(@Caller() ctx: ProjectContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<PromptDiffView> {
    const { from, to } = parseResourceQuery(query, { from: 'positive-int', to: 'positive-int' });
    const missing = (['from', 'to'] as const).filter((name) => (name === 'from' ? from : to) === undefined);
    if (missing.length) throw DomainError.validation(missing.map((path) => ({ path, message: 'is required (a version number)' })));
    return this.bus.request(Patterns.PromptDiff, { ctx, id, from: from!, to: to! });
  }

  /** A POST (the values travel in a body) that changes nothing: `read` is enough. */
  @Post(':id/render')
  @Idempotent()
  @HttpCode(200)
  @RequiresScope('read')
  @ApiOperation({
    operationId: 'renderPrompt',
    summary: 'Fill the placeholders of a version (default: the newest; or a release) with values; 400 missing_variables names each unfilled one',
  })
  @ApiResponse({ status: 200, type: RenderedPromptView })
  render(@Caller() ctx: ProjectContext, @Param('id') id: string, @Body() input: RenderPromptInput): Promise<RenderedPromptView> {
    return this.bus.request(Patterns.PromptRender, { ctx, id, input });
  }
}

/** `?version=N` or `?release=name` (not both), with the route's other parameters. */
function versionOrRelease<T extends Record<string, 'boolean'>>(query: Record<string, unknown>, others: T) {
  const { release, ...rest } = query;
  const parsed = parseResourceQuery(rest, { version: 'positive-int', ...others } as { version: 'positive-int' } & T);
  if (release === undefined) return { ...parsed, release: undefined };
  if (typeof release !== 'string' || !PROMPT_RELEASE_NAME_PATTERN.test(release)) {
    throw DomainError.validation([{ path: 'release', message: 'must be a release name: 1..50 of a-z, 0-9, "_", "." and "-", given once' }]);
  }
  if (parsed.version !== undefined) throw DomainError.validation([{ path: 'release', message: 'takes the place of version: name one or the other' }]);
  return { ...parsed, release };
}

/** A prompt answer with its ETag, or 304 with no body when the client already holds this version of this prompt. */
function conditionally(reply: Reply, prompt: PromptView, ifNoneMatch: string | undefined): PromptView | undefined {
  withETag(reply, prompt);
  if (!ifNoneMatchHolds(ifNoneMatch, promptETag(prompt.id, prompt.version))) return prompt;
  reply.status(304);
  return undefined;
}

function withETag(reply: Reply, prompt: PromptView): PromptView {
  reply.header('etag', promptETag(prompt.id, prompt.version));
  return prompt;
}
