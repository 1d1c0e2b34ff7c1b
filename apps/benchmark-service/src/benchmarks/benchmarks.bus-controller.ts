import { BusController, Handles } from '@cinetrace/bus';
import { BenchmarkListRequest, BenchmarkRequest, Patterns, ProjectContext } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { BenchmarksService } from './benchmarks.service';

/** Bus adapter for benchmarks: unpacks the message, calls the service. */
@BusController()
export class BenchmarksBusController {
  constructor(private readonly benchmarks: BenchmarksService) {}

  @Handles(Patterns.BenchmarkCreate)
  create(@Payload('ctx') ctx: ProjectContext, @Payload('input') input: unknown) {
    // Validated by the service, which adds the checks that need the store to the same answer.
    return this.benchmarks.create(ctx, input);
  }

  @Handles(Patterns.BenchmarkList)
  list(@Payload() request: BenchmarkListRequest) {
    return this.benchmarks.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.BenchmarkGet)
  get(@Payload() request: BenchmarkRequest) {
    return this.benchmarks.get(request.ctx, request.id);
  }

  @Handles(Patterns.BenchmarkDelete)
  delete(@Payload() request: BenchmarkRequest) {
    return this.benchmarks.delete(request.ctx, request.id);
  }
}
