import type { Media } from './api-types';
import type { MediaKind, StoredMedia } from './media';

// Where the console plays a stored media from. The API wants the project's key in a header,
// which a <video src> cannot send (and a key never goes in a URL), so our copy is fetched
// with the client and played from an object URL. That holds the whole file in the tab's
// memory, so only copies up to COPY_MAX_BYTES are fetched; a bigger one plays from the URL
// the output named when that URL is https (what the console's CSP lets a media element
// load), else the panel says why it does not play (its probe, storyboard and annotations
// are still shown). Streaming a big copy by Range requests needs MediaSource or a service
// worker adding the header: not built.

/** 64 MiB: about 2 minutes of 1080p H.264 at 4 Mbit/s, what a generated clip is. */
export const COPY_MAX_BYTES = 64 * 1024 * 1024;

export type Playback = { from: 'copy' } | { from: 'url'; url: string; reason: string } | { from: 'none'; reason: string };

/** Where to play `asset` from, once its media row (or the failure to read it) is known. */
export function playbackOf(asset: StoredMedia, media: Media | null, copyFailed = false): Playback {
  const why = !media
    ? 'the stored copy could not be read'
    : media.status === 'failed'
      ? 'the stored copy is not playable media'
      : copyFailed
        ? 'the stored copy could not be fetched'
        : media.bytes > COPY_MAX_BYTES
          ? `the stored copy is larger than ${COPY_MAX_BYTES / 1024 / 1024} MiB, the most the console fetches to play`
          : null;
  if (why === null) return { from: 'copy' };
  const url = asset.url && /^https:/i.test(asset.url) ? asset.url : null;
  return url ? { from: 'url', url, reason: `Playing the original URL: ${why}.` } : { from: 'none', reason: `Not played here: ${why}.` };
}

/** The media's kind: as the output named it, else as its stored type says. */
export function kindOf(asset: StoredMedia, media: Media | null): MediaKind | null {
  if (asset.kind) return asset.kind;
  const type = media?.contentType.toLowerCase() ?? '';
  return type.startsWith('video/') ? 'video' : type.startsWith('image/') ? 'image' : type.startsWith('audio/') ? 'audio' : null;
}
