import { BusController, Handles } from '@cinetrace/bus';
import { MoveReleaseInput, Patterns, PromptReleaseMoveRequest, PromptReleaseRemoveRequest, PromptReleasesRequest } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { ReleasesService } from './releases.service';

/** Bus adapter for releases: unpacks the message, calls the service. */
@BusController()
export class ReleasesBusController {
  constructor(private readonly releases: ReleasesService) {}

  @Handles(Patterns.PromptReleases)
  list(@Payload() request: PromptReleasesRequest) {
    return this.releases.list(request.ctx, request.id);
  }

  @Handles(Patterns.PromptReleaseMove)
  move(@Payload() request: Omit<PromptReleaseMoveRequest, 'input'>, @Payload('input') input: MoveReleaseInput) {
    return this.releases.move({ ...request, input });
  }

  @Handles(Patterns.PromptReleaseRemove)
  async remove(@Payload() request: PromptReleaseRemoveRequest) {
    await this.releases.remove(request);
    return { removed: true as const };
  }
}
