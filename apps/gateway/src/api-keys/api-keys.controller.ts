import { BusClient } from '@cinetrace/bus';
import { ApiKeyListRequest, ApiKeyView, CreateApiKeyInput, CreatedApiKeyView, ListEnvelope, OrgContext, Patterns } from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OrganizationAdmin } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { SecretInAnswer } from '../idempotency/secret-in-answer.decorator';
import { ApiListResponse } from '../lists/api-list-response';
import { ListResponder } from '../lists/list-responder';
import { newKey } from './new-key';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** /api/v1/api-keys: the organization's keys; `admin` keys without a project restriction only. */
@ApiTags('API keys')
@OrganizationAdmin()
@Controller('api/v1/api-keys')
export class ApiKeysController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @SecretInAnswer()
  @ApiOperation({ operationId: 'createApiKey', summary: 'Create an API key; the key is in this answer only' })
  @ApiResponse({ status: 201, type: CreatedApiKeyView })
  async create(@Caller() ctx: OrgContext, @Body() input: CreateApiKeyInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { key, credential } = newKey();
    const stored = await this.bus.request(Patterns.ApiKeyCreate, { ctx, input, credential });
    reply.header('location', `/api/v1/api-keys/${stored.id}`);
    // The key must not linger in a cache between the client and us.
    reply.header('cache-control', 'no-store');
    return { ...stored, key } satisfies CreatedApiKeyView;
  }

  @Get()
  @ApiOperation({ operationId: 'listApiKeys', summary: 'List the API keys, newest first (never the keys themselves)' })
  @ApiListResponse(ApiKeyView)
  list(@Caller() ctx: OrgContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<ApiKeyView>> {
    return this.lists.respond('api-keys', ctx, query, {}, (_filters, page: ApiKeyListRequest['page']) => this.bus.request(Patterns.ApiKeyList, { ctx, page }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'revokeApiKey', summary: 'Revoke an API key; it is refused everywhere within AUTH_CACHE_TTL_MS' })
  @ApiResponse({ status: 204, description: 'Revoked' })
  @ApiResponse({ status: 409, description: 'The last admin key without a project restriction' })
  async revoke(@Caller() ctx: OrgContext, @Param('id') id: string): Promise<void> {
    await this.bus.request(Patterns.ApiKeyRevoke, { ctx, id });
  }
}
