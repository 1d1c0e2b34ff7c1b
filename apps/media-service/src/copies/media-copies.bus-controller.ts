import { BusController, Handles } from '@cinetrace/bus';
import { MediaCopiesRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { TraceMediaCopies } from './trace-media-copies.service';

/** Bus adapter for the copies of media that trace outputs name (trace-ingest hands them over). */
@BusController()
export class MediaCopiesBusController {
  constructor(private readonly copies: TraceMediaCopies) {}

  @Handles(Patterns.MediaCopiesRequest)
  request(@Payload() request: MediaCopiesRequest) {
    return this.copies.accept(request);
  }
}
