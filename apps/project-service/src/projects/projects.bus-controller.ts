import { BusController, Handles } from '@cinetrace/bus';
import { CreateProjectInput, OrgContext, Patterns, ProjectGetRequest, ProjectListRequest } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { ProjectsService } from './projects.service';

/** Bus adapter for projects: unpacks the message, calls the service. */
@BusController()
export class ProjectsBusController {
  constructor(private readonly projects: ProjectsService) {}

  @Handles(Patterns.ProjectCreate)
  create(@Payload('ctx') ctx: OrgContext, @Payload('input') input: CreateProjectInput) {
    return this.projects.create(ctx, input);
  }

  @Handles(Patterns.ProjectList)
  list(@Payload() request: ProjectListRequest) {
    return this.projects.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.ProjectGet)
  get(@Payload() request: ProjectGetRequest) {
    return this.projects.get(request.ctx, request.id);
  }
}
