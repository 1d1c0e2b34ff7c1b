import { BusController, Handles } from '@cinetrace/bus';
import {
  CreatePromptInput,
  Patterns,
  PromptCreateRequest,
  PromptActivityKey,
  PromptDeleteRequest,
  PromptDiffRequest,
  PromptRenderRequest,
  RenderPromptInput,
  PromptGetRequest,
  PromptHistoryRequest,
  PromptListRequest,
  PromptUpdateRequest,
  PromptVersionKey,
  UpdatePromptInput,
} from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { PromptReadsService } from './prompt-reads.service';
import { PromptRendersService } from './prompt-renders.service';
import { PromptsService } from './prompts.service';

/** Bus adapter for prompts: unpacks the message, calls the service. */
@BusController()
export class PromptsBusController {
  constructor(
    private readonly prompts: PromptsService,
    private readonly reads: PromptReadsService,
    private readonly renders: PromptRendersService,
  ) {}

  @Handles(Patterns.PromptCreate)
  create(@Payload() request: Omit<PromptCreateRequest, 'input'>, @Payload('input') input: CreatePromptInput) {
    return this.prompts.create(request.ctx, input, request.mayChangeGate === true);
  }

  @Handles(Patterns.PromptUpdate)
  update(@Payload() request: Omit<PromptUpdateRequest, 'input'>, @Payload('input') input: UpdatePromptInput) {
    return this.prompts.update(request.ctx, request.id, input, request.ifMatch);
  }

  @Handles(Patterns.PromptDelete)
  delete(@Payload() request: PromptDeleteRequest) {
    return this.prompts.delete(request.ctx, request.id, request.ifMatch, request.mayChangeGate === true);
  }

  @Handles(Patterns.PromptGet)
  get(@Payload() request: PromptGetRequest) {
    return this.reads.get(request);
  }

  @Handles(Patterns.PromptList)
  list(@Payload() request: PromptListRequest) {
    return this.reads.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.PromptVersions)
  versions(@Payload() request: PromptHistoryRequest<PromptVersionKey>) {
    return this.reads.versionsOf(request.ctx, request.id, request.page);
  }

  @Handles(Patterns.PromptActivity)
  activity(@Payload() request: PromptHistoryRequest<PromptActivityKey>) {
    return this.reads.activityOf(request.ctx, request.id, request.page);
  }

  @Handles(Patterns.PromptDiff)
  diff(@Payload() request: PromptDiffRequest) {
    return this.renders.diff(request);
  }

  @Handles(Patterns.PromptRender)
  render(@Payload() request: Omit<PromptRenderRequest, 'input'>, @Payload('input') input: RenderPromptInput) {
    return this.renders.render({ ...request, input });
  }
}
