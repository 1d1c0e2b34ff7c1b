import { DomainError, ErrorCode, type MediaStoryboardReply, type ProjectContext } from '@cinetrace/contracts';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { pictureProbe } from '../media/media-readiness';
import { mediaJob, type MediaJobQueue } from '../media/media-jobs';
import { findMedia } from '../store/media.queries';

/** Provider token of the storyboard jobs' queue (a media job queue of its own: BullMQ `media-storyboards`, or in process). */
export const STORYBOARD_JOBS = Symbol('StoryboardJobs');

/**
 * A media's storyboard as the bus asks for it: the keyframes once the storyboard job stored
 * them, else the job handed to the queue and `pending` (the gateway asks again). Scene
 * detection decodes the whole video, which may take minutes: it never runs inside a bus
 * request, which would hold the service's request partition that long.
 */
@Injectable()
export class StoryboardService {
  private readonly logger = new Logger(StoryboardService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(STORYBOARD_JOBS) private readonly jobs: MediaJobQueue,
  ) {}

  async storyboard(ctx: ProjectContext, id: string): Promise<MediaStoryboardReply> {
    const media = await findMedia(this.dataSource.manager, ctx.projectId, id);
    if (!media) throw DomainError.notFound(`No media '${id}' in this project`);
    const probe = pictureProbe(media, 'storyboards');
    // A still picture (an image, or a video of one frame): its one keyframe.
    if (!probe.durationMs || probe.fps === null) return { status: 'ready', atMs: [0] };
    const stored = media.storyboard;
    if (stored && 'error' in stored) throw new DomainError(ErrorCode.MediaNotReady, `The storyboard could not be made: ${stored.error}`);
    if (stored) return { status: 'ready', atMs: stored.atMs };
    try {
      await this.jobs.enqueue([mediaJob(media)]);
    } catch (err) {
      this.logger.warn(`Storyboard of ${media.id} not queued: ${(err as Error).message}`);
      throw new DomainError(ErrorCode.Unavailable, 'The storyboard queue is unavailable; retry later');
    }
    return { status: 'pending' };
  }
}
