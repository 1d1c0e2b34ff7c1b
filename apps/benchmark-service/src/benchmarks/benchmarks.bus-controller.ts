import { BusController } from '@cinetrace/bus';
import { BenchmarkListRequest, BenchmarkRequest, Patterns, ProjectContext, SecretReferencesRequest } from '@cinetrace/contracts';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { BenchmarksService } from './benchmarks.service';

/** Bus adapter for benchmarks: unpacks the message, calls the service. */
@BusController()
export class BenchmarksBusController {
  constructor(private readonly benchmarks: BenchmarksService) {}

  @MessagePattern(Patterns.BenchmarkCreate)
  create(@Payload('ctx') ctx: ProjectContext, @Payload('input') input: unknown) {
    // Validated by the service, which adds the checks that need the store to the same answer.
    return this.benchmarks.create(ctx, input);
  }

  @MessagePattern(Patterns.BenchmarkList)
  list(@Payload() request: BenchmarkListRequest) {
    return this.benchmarks.list(request.ctx, request.filters, request.page);
  }

  @MessagePattern(Patterns.BenchmarkGet)
  get(@Payload() request: BenchmarkRequest) {
    return this.benchmarks.get(request.ctx, request.id);
  }

  @MessagePattern(Patterns.SecretReferences)
  secretReferences(@Payload() request: SecretReferencesRequest) {
    return this.benchmarks.secretReferences(request);
  }

  @MessagePattern(Patterns.BenchmarkDelete)
  delete(@Payload() request: BenchmarkRequest) {
    return this.benchmarks.delete(request.ctx, request.id);
  }
}
