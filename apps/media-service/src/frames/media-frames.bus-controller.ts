import { BusController, Handles } from '@cinetrace/bus';
import { MediaFrameRequest, MediaRequest, Patterns } from '@cinetrace/contracts';
import { Payload } from '@nestjs/microservices';
import { StoryboardService } from '../storyboard/storyboard.service';
import { MediaFramesService } from './media-frames.service';

/** Bus adapter for frames and storyboards: unpacks the message, calls the service. */
@BusController()
export class MediaFramesBusController {
  constructor(
    private readonly frames: MediaFramesService,
    private readonly storyboards: StoryboardService,
  ) {}

  @Handles(Patterns.MediaFrame)
  frame(@Payload() request: MediaFrameRequest) {
    return this.frames.frame(request.ctx, request.id, request.atMs);
  }

  @Handles(Patterns.MediaStoryboard)
  storyboard(@Payload() request: MediaRequest) {
    return this.storyboards.storyboard(request.ctx, request.id);
  }
}
