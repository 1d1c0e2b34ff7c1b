import { BusClient } from '@cinetrace/bus';
import { CreateProjectInput, ListEnvelope, OrgContext, Patterns, ProjectListRequest, ProjectView } from '@cinetrace/contracts';
import { Body, Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { OrganizationScoped, WholeOrganization } from '../auth/access.decorators';
import { Caller } from '../auth/caller';
import { ApiListResponse } from '../lists/api-list-response';
import type { FilterSpec } from '../lists/list-query';
import { ListResponder } from '../lists/list-responder';
import { Idempotent } from '../idempotency/idempotent.decorator';

const PROJECT_FILTERS = { name: 'string' } as const satisfies FilterSpec;

/** /api/v1/projects: organization scope (no X-Project-Key). Thin: validates, then asks project-service. */
@ApiTags('Projects')
@OrganizationScoped()
@Controller('api/v1/projects')
export class ProjectsController {
  constructor(
    private readonly bus: BusClient,
    private readonly lists: ListResponder,
  ) {}

  @Post()
  @Idempotent()
  @HttpCode(201)
  // A key restricted to some projects could not use the project it made: it may not make one.
  @WholeOrganization()
  @ApiOperation({ operationId: 'createProject', summary: 'Create a project' })
  @ApiResponse({ status: 201, type: ProjectView })
  async create(@Caller() ctx: OrgContext, @Body() input: CreateProjectInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const project = await this.bus.request(Patterns.ProjectCreate, { ctx, input });
    reply.header('location', `/api/v1/projects/${project.id}`);
    return project;
  }

  @Get()
  @ApiOperation({ operationId: 'listProjects', summary: 'List projects, newest first (filter: name)' })
  @ApiListResponse(ProjectView, PROJECT_FILTERS)
  list(@Caller() ctx: OrgContext, @Query() query: Record<string, unknown>): Promise<ListEnvelope<ProjectView>> {
    return this.lists.respond('projects', ctx, query, PROJECT_FILTERS, (filters, page: ProjectListRequest['page']) =>
      this.bus.request(Patterns.ProjectList, { ctx, filters, page }),
    );
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getProject', summary: 'Get a project' })
  @ApiResponse({ status: 200, type: ProjectView })
  get(@Caller() ctx: OrgContext, @Param('id') id: string): Promise<ProjectView> {
    return this.bus.request(Patterns.ProjectGet, { ctx, id });
  }
}
