import type { MediaBlobView, MediaView } from '@cinetrace/contracts';
import { toIso } from '@cinetrace/persistence';
import type { Media } from '../store/media.entity';

export function toMediaView(m: Media): MediaView {
  return {
    id: m.id,
    projectId: m.projectId,
    sha256: m.sha256,
    contentType: m.contentType,
    bytes: m.bytes,
    sourceUrl: m.sourceUrl,
    status: m.status,
    probe: m.probe,
    error: m.error,
    createdAt: toIso(m.createdAt),
  };
}

export const toMediaBlobView = (m: Media): MediaBlobView => ({ key: m.blobKey, contentType: m.contentType, bytes: m.bytes });
