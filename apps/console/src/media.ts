/** A video, image or audio asset named in an output or attributes: `{ url, contentType }` (API.md, Media). */
export interface MediaAsset {
  url: string;
  contentType: string;
  kind: 'video' | 'image' | 'audio';
  /** Where it was found, e.g. `output[1]` or `attributes.preview`. */
  path: string;
}

const KINDS = ['video', 'image', 'audio'] as const;
// Only schemes a media element may load; a `javascript:` or `file:` URL is shown as data, not played.
const PLAYABLE_URL = /^(https?:|data:(video|image|audio)\/|blob:)/i;
// Outputs can be large; the walk stops early rather than scan megabytes of JSON.
const MAX_DEPTH = 4;
const MAX_ASSETS = 24;

/** The media reference `value` is, if it is one. */
export function asMedia(value: unknown, path = ''): MediaAsset | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { url, contentType } = value as Record<string, unknown>;
  if (typeof url !== 'string' || typeof contentType !== 'string') return null;
  const kind = KINDS.find((k) => contentType.toLowerCase().startsWith(`${k}/`));
  if (!kind || !PLAYABLE_URL.test(url.trim())) return null;
  return { url: url.trim(), contentType, kind, path };
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
