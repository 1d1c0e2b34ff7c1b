import { BusClient } from '@cinetrace/bus';
import {
  CreateSecretInput,
  ListEnvelope,
  OrgContext,
  Patterns,
  RotateSecretInput,
  SecretActivityRequest,
  SecretActivityView,
  SecretListRequest,
  SecretView,
} from '@cinetrace/contracts';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OrganizationAdmin } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { SecretSealer } from './secret-sealer';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { SecretInBody } from '../idempotency/secret-in-body.decorator';

const SECRET_FILTERS = { name: 'string' } as const satisfies FilterSpec;

/**
 * /api/v1/secrets: the organization's credentials, organization scope (no X-Project-Key).
 * Values go in and never come out. Thin: validates, then asks project-service.
 * Every handler here is for admin keys only (API.md): the admin scope decorator goes on the class.
 */
@ApiTags('Secrets')
@OrganizationAdmin()
@Controller('api/v1/secrets')
export class SecretsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
    private readonly sealer: SecretSealer,
  ) {}

  @Post()
  @Idempotent()
  @SecretInBody('value')
  @HttpCode(201)
  @ApiOperation({ operationId: 'createSecret', summary: 'Create a secret (the value is stored encrypted and never returned)' })
  @ApiResponse({ status: 201, type: SecretView })
  @ApiResponse({ status: 409, description: 'The organization has a secret of that name' })
  async create(@Caller() ctx: OrgContext, @Body() input: CreateSecretInput, @Res({ passthrough: true }) reply: FastifyReply): Promise<SecretView> {
    const { value, ...rest } = input;
    // The value crosses the bus sealed to project-service: never in clear in Kafka's log.
    const secret = await this.sealer.send(ctx.orgId, value, (sealedValue) => this.bus.request(Patterns.SecretCreate, { ctx, input: { ...rest, sealedValue } }));
    reply.header('location', `/api/v1/secrets/${secret.id}`);
    return secret;
  }

  @Get()
  @ApiOperation({ operationId: 'listSecrets', summary: 'List secrets, newest first (filter: name); never their values' })
  @ApiListResponse(SecretView, SECRET_FILTERS)
  list(@Caller() ctx: OrgContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<SecretView>> {
    return this.lists.respond('secrets', ctx, query, SECRET_FILTERS, (filters, page: SecretListRequest['page']) => this.bus.request(Patterns.SecretList, { ctx, filters, page }));
  }

  @Put(':id')
  @ApiOperation({ operationId: 'rotateSecret', summary: "Replace a secret's value (rotation) and, when sent, its allowed hosts" })
  @ApiResponse({ status: 200, type: SecretView })
  rotate(@Caller() ctx: OrgContext, @Param('id') id: string, @Body() input: RotateSecretInput): Promise<SecretView> {
    const { value, ...rest } = input;
    return this.sealer.send(ctx.orgId, value, (sealedValue) => this.bus.request(Patterns.SecretRotate, { ctx, id, input: { ...rest, sealedValue } }));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ operationId: 'deleteSecret', summary: 'Delete a secret; 409 while a benchmark references it' })
  @ApiResponse({ status: 204, description: 'Deleted' })
  @ApiResponse({ status: 409, description: 'A benchmark of the organization references it' })
  async delete(@Caller() ctx: OrgContext, @Param('id') id: string): Promise<void> {
    await this.bus.request(Patterns.SecretDelete, { ctx, id });
  }

  @Get(':id/activity')
  @ApiOperation({ operationId: 'listSecretActivity', summary: "A secret's audit trail, newest first: who created, rotated or deleted it, and when" })
  @ApiListResponse(SecretActivityView)
  activity(@Caller() ctx: OrgContext, @Param('id') id: string, @Query() query: Record<string, unknown>): Promise<ListEnvelope<SecretActivityView>> {
    return this.lists.respond(`secrets/${id}/activity`, ctx, query, {}, (_, page: SecretActivityRequest['page']) => this.bus.request(Patterns.SecretActivity, { ctx, id, page }));
  }
}
