import { BusController, Handles } from '@cinetrace/bus';
import { MediaListRequest, MediaRegisterRequest, MediaRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { MediaService } from './media.service';

/** Bus adapter for media: unpacks the message, calls the service. */
@BusController()
export class MediaBusController {
  constructor(private readonly media: MediaService) {}

  @Handles(Patterns.MediaRegister)
  register(@Payload() request: MediaRegisterRequest) {
    return this.media.register(request);
  }

  @Handles(Patterns.MediaList)
  list(@Payload() request: MediaListRequest) {
    return this.media.list(request.ctx, request.filters, request.page);
  }

  @Handles(Patterns.MediaGet)
  get(@Payload() request: MediaRequest) {
    return this.media.get(request.ctx, request.id);
  }

  @Handles(Patterns.MediaBlob)
  blob(@Payload() request: MediaRequest) {
    return this.media.blob(request.ctx, request.id);
  }
}
