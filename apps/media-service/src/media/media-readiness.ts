import { DomainError, ErrorCode, type MediaProbeView } from '@cinetrace/contracts';
import type { Media } from '../store/media.entity';

/** The probe of a media that is `ready`; else `media_not_ready` (409), saying what `use` needs. */
function readyProbe(media: Media, use: string): MediaProbeView {
  if (media.status === 'ready' && media.probe) return media.probe;
  const why = media.status === 'pending' ? 'is not probed yet (retry once its status is ready)' : `failed its probe (${media.error ?? 'not media'})`;
  throw new DomainError(ErrorCode.MediaNotReady, `Media '${media.id}' ${why}: ${use} need a probed media`);
}

/** A ready media with a picture (a video or an image): frames and storyboards. */
export function pictureProbe(media: Media, use: string): MediaProbeView {
  const probe = readyProbe(media, use);
  if (probe.width === null) throw new DomainError(ErrorCode.MediaNotReady, `Media '${media.id}' has no picture (${media.contentType}): ${use} need a video or an image`);
  return probe;
}

/** The duration of a ready media that has one (a video or audio): annotations are time-coded. */
export function mediaDurationMs(media: Media, use: string): number {
  const probe = readyProbe(media, use);
  if (probe.durationMs === null) throw new DomainError(ErrorCode.MediaNotReady, `Media '${media.id}' has no duration (${media.contentType}): ${use} need a video or audio`);
  return probe.durationMs;
}
