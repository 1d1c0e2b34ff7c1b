import { BusController, Handles } from '@cinetrace/bus';
import { Patterns, ProjectContext, RunListRequest, TaskListRequest, TaskOutputRequest } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { RunsService } from './runs.service';

/** Bus adapter for runs and tasks. */
@BusController()
export class RunsBusController {
  constructor(private readonly runs: RunsService) {}

  @Handles(Patterns.RunStart)
  start(@Payload('ctx') ctx: ProjectContext, @Payload('benchmarkId') benchmarkId: string, @Payload('input') input: unknown) {
    // Validated by the service, with the checks that need the store in the same answer.
    return this.runs.start(ctx, benchmarkId, input);
  }

  @Handles(Patterns.RunList)
  list(@Payload() request: RunListRequest) {
    return this.runs.listRuns(request.ctx, request.benchmarkId, request.page);
  }

  @Handles(Patterns.TaskList)
  tasks(@Payload() request: TaskListRequest) {
    return this.runs.listTasks(request.ctx, request.benchmarkId, request.filters, request.page);
  }

  @Handles(Patterns.TaskOutput)
  output(@Payload() request: TaskOutputRequest) {
    return this.runs.outputOfItem(request);
  }
}
