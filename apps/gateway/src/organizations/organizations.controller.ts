import { BusClient } from '@cinetrace/bus';
import { CreatedOrganizationView, CreateOrganizationInput, OrgContext, Patterns } from '@cinetrace/contracts';
import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { newKey } from '../api-keys/new-key';
import { InstanceAdmin } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { SecretInAnswer } from '../idempotency/secret-in-answer.decorator';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** /api/v1/organizations: further organizations of this deployment, made by an instance admin. */
@ApiTags('Organizations')
@InstanceAdmin()
@Controller('api/v1/organizations')
export class OrganizationsController {
  constructor(private readonly bus: BusClient) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  @SecretInAnswer()
  @ApiOperation({ operationId: 'createOrganization', summary: 'Create an organization; its first admin key is in this answer only' })
  @ApiResponse({ status: 201, type: CreatedOrganizationView })
  async create(@Caller() ctx: OrgContext, @Body() input: CreateOrganizationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { key, credential } = newKey();
    const stored = await this.bus.request(Patterns.OrganizationCreate, {
      ctx,
      input,
      credential,
    });
    reply.header('cache-control', 'no-store');
    return { ...stored, apiKey: { ...stored.apiKey, key } } satisfies CreatedOrganizationView;
  }
}
