import { BusController, Handles } from '@cinetrace/bus';
import { CreateMediaAnnotationInput, MediaAnnotationCountsRequest, MediaAnnotationListRequest, Patterns, type ProjectContext } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { AnnotationsService } from './annotations.service';

/** Bus adapter for annotations: unpacks the message (the input validated here too), calls the service. */
@BusController()
export class AnnotationsBusController {
  constructor(private readonly annotations: AnnotationsService) {}

  @Handles(Patterns.MediaAnnotationCreate)
  create(@Payload('ctx') ctx: ProjectContext, @Payload('mediaId') mediaId: string, @Payload('input') input: CreateMediaAnnotationInput) {
    return this.annotations.create(ctx, mediaId, input);
  }

  @Handles(Patterns.MediaAnnotationList)
  list(@Payload() request: MediaAnnotationListRequest) {
    return this.annotations.list(request.ctx, request.mediaId, request.page);
  }

  @Handles(Patterns.MediaAnnotationCounts)
  counts(@Payload() request: MediaAnnotationCountsRequest) {
    return this.annotations.countLabels(request.ctx, request.mediaIds);
  }
}
