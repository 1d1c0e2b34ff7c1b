import { projectScoped } from './request-shape';
import type { Page } from '../lists/page';
import type {
  MediaAnnotationCountsReply,
  MediaAnnotationCountsRequest,
  MediaAnnotationCreateRequest,
  MediaAnnotationListKey,
  MediaAnnotationListRequest,
} from '../media/annotation.messages';
import type { MediaAnnotationView } from '../media/annotation.views';
import type { MediaFrameRequest, MediaStoryboardReply } from '../media/frame.messages';
import type { MediaFrameBlobView } from '../media/frame.views';
import type { MediaListKey, MediaListRequest, MediaRegisterRequest, MediaRequest } from '../media/media.messages';
import type { MediaBlobView, MediaRegisteredView, MediaView } from '../media/media.views';
import type { MediaCopiesAcceptedView, MediaCopiesRequest } from '../media/trace-media.messages';
import { ServiceNames } from '../wire-names';
import { busPattern, pingPattern } from './bus-pattern';

const service = ServiceNames.MediaService;

/** What media-service answers: media, their frames, storyboards, annotations and copies. */
export const mediaServicePatterns = {
  MediaPing: pingPattern('media.ping', service),
  MediaRegister: busPattern<MediaRegisterRequest, MediaRegisteredView>()({ wire: 'media.media.register', service, readOnly: false, shape: projectScoped() }),
  MediaList: busPattern<MediaListRequest, Page<MediaView, MediaListKey>>()({ wire: 'media.media.list', service, readOnly: true, shape: projectScoped() }),
  MediaGet: busPattern<MediaRequest, MediaView>()({ wire: 'media.media.get', service, readOnly: true, shape: projectScoped('id') }),
  /** The gateway asks where a media's bytes are (its blob key), to stream them itself. */
  MediaBlob: busPattern<MediaRequest, MediaBlobView>()({ wire: 'media.media.blob', service, readOnly: true, shape: projectScoped('id') }),
  /**
   * The gateway asks for the blob of a frame (rendered and stored at the first request), to
   * stream it itself. Read-only: a frame rendered again is the same cache entry.
   */
  MediaFrame: busPattern<MediaFrameRequest, MediaFrameBlobView>()({ wire: 'media.frames.render', service, readOnly: true, shape: projectScoped('id') }),
  /**
   * The storyboard's keyframes, or `pending` while its job runs (the gateway asks again).
   * Read-only: a storyboard job handed over again is the same job.
   */
  MediaStoryboard: busPattern<MediaRequest, MediaStoryboardReply>()({ wire: 'media.storyboard.get', service, readOnly: true, shape: projectScoped('id') }),
  MediaAnnotationCreate: busPattern<MediaAnnotationCreateRequest, MediaAnnotationView>()({
    wire: 'media.annotations.create',
    service,
    readOnly: false,
    shape: projectScoped('mediaId'),
  }),
  MediaAnnotationList: busPattern<MediaAnnotationListRequest, Page<MediaAnnotationView, MediaAnnotationListKey>>()({
    wire: 'media.annotations.list',
    service,
    readOnly: true,
    shape: projectScoped('mediaId'),
  }),
  /** benchmark-service asks for the annotation labels counted over the media a run's outputs name (a run summary). */
  MediaAnnotationCounts: busPattern<MediaAnnotationCountsRequest, MediaAnnotationCountsReply>()({
    wire: 'media.annotations.counts',
    service,
    readOnly: true,
    shape: projectScoped(),
  }),
  /** trace-ingest hands over the media references of stored outputs, to be copied. */
  MediaCopiesRequest: busPattern<MediaCopiesRequest, MediaCopiesAcceptedView>()({ wire: 'media.copies.request', service, readOnly: false, shape: { strings: ['projectId'] } }),
} as const;
