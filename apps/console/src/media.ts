export type MediaKind = 'video' | 'image' | 'audio';

/** A media named by URL only: `{ url, contentType }`, played from that URL. */
export interface LinkedMedia {
  mediaId: null;
  url: string;
  contentType: string;
  kind: MediaKind;
  /** Where it was found, e.g. `output[1]` or `attributes.preview`. */
  path: string;
}

/**
 * A media the service holds: `{ mediaId }`, with the `url` it was copied from beside it
 * when the output named one (API.md, Media). Its kind comes from the stored media when the
 * reference does not say it.
 */
export interface StoredMedia {
  mediaId: string;
  url: string | null;
  contentType: string | null;
  kind: MediaKind | null;
  path: string;
}

/** A video, image or audio asset named in an output or attributes (API.md, Media). */
export type MediaAsset = LinkedMedia | StoredMedia;

const KINDS = ['video', 'image', 'audio'] as const;
// Media ids are `med_` and a ULID; anything else is data, never put in a request path.
const MEDIA_ID = /^med_[0-9a-z]{1,64}$/i;
// Only schemes a media element may load; a `javascript:` or `file:` URL is shown as data, not played.
const PLAYABLE_URL = /^(https?:|data:(video|image|audio)\/|blob:)/i;
// Outputs can be large; the walk stops early rather than scan megabytes of JSON.
const MAX_DEPTH = 4;
const MAX_ASSETS = 24;

/** The media reference `value` is, if it is one. */
export function asMedia(value: unknown, path = ''): MediaAsset | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { url, contentType, mediaId } = value as Record<string, unknown>;
  const type = typeof contentType === 'string' ? contentType : null;
  const kind = type ? (KINDS.find((k) => type.toLowerCase().startsWith(`${k}/`)) ?? null) : null;
  const playable = typeof url === 'string' && PLAYABLE_URL.test(url.trim()) ? url.trim() : null;
  if (typeof mediaId === 'string' && MEDIA_ID.test(mediaId)) {
    // A stored media: its type was known when it was copied, so a reference without one is still media.
    if (type && !kind) return null;
    return { mediaId, url: playable, contentType: type, kind, path };
  }
  if (!type || !kind || !playable) return null;
  return { mediaId: null, url: playable, contentType: type, kind, path };
}

/** Every media asset in `value` (itself, an array of them, or nested a few levels down). */
export function findMedia(value: unknown, path: string): MediaAsset[] {
  const found: MediaAsset[] = [];
  walk(value, path, 0, found);
  return found;
}

function walk(value: unknown, path: string, depth: number, found: MediaAsset[]): void {
  if (found.length >= MAX_ASSETS || depth > MAX_DEPTH || !value || typeof value !== 'object') return;
  const media = asMedia(value, path);
  if (media) {
    found.push(media);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => walk(item, `${path}[${i}]`, depth + 1, found));
    return;
  }
  for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`, depth + 1, found);
}

/** The media of a span or trace: its output's, then its attributes'. */
export function mediaOf(item: { output?: unknown; attributes?: unknown }): MediaAsset[] {
  return [...findMedia(item.output, 'output'), ...findMedia(item.attributes, 'attributes')];
}
