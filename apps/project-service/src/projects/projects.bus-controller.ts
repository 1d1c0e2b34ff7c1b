import { BusController } from '@cinetrace/bus';
import {
  CreateProjectInput,
  OrgContext,
  Patterns,
  ProjectGetRequest,
  ProjectListRequest,
} from '@cinetrace/contracts';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { ProjectsService } from './projects.service';

/** Bus adapter for projects: unpacks the message, calls the service. */
@BusController()
export class ProjectsBusController {
  constructor(private readonly projects: ProjectsService) {}

  @MessagePattern(Patterns.ProjectCreate)
  create(@Payload('ctx') ctx: OrgContext, @Payload('input') input: CreateProjectInput) {
    return this.projects.create(ctx, input);
  }

  @MessagePattern(Patterns.ProjectList)
  list(@Payload() request: ProjectListRequest) {
    return this.projects.list(request.ctx, request.filters, request.page);
  }

  @MessagePattern(Patterns.ProjectGet)
  get(@Payload() request: ProjectGetRequest) {
    return this.projects.get(request.ctx, request.id);
  }
}
