import { MEDIA_TYPE_PATTERN, MEDIA_URL_MAX, TRACE_MEDIA_URL_PATTERN } from '@cinetrace/contracts';

/** A media an output names by URL and has not been copied yet: `{ url, contentType }` without `mediaId`. */
export interface MediaReference {
  url: string;
  /** The media type, lowercased and without parameters. */
  contentType: string;
}

const NONE: readonly MediaReference[] = Object.freeze([]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `video/mp4; codecs=…` → `video/mp4`, when it is a video, image or audio type. */
function mediaType(contentType: string): string | undefined {
  const type = contentType.split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE_PATTERN.test(type) ? type : undefined;
}

/** The reference `item` is, if it is one still to copy. */
function uncopied(item: unknown): MediaReference | undefined {
  if (!isRecord(item) || item.mediaId !== undefined) return undefined;
  const { url, contentType } = item;
  if (typeof url !== 'string' || typeof contentType !== 'string') return undefined;
  // http(s) only (what the outbound rules fetch), encoded, and no longer than `POST /api/v1/media { url }` takes.
  if (url.length > MEDIA_URL_MAX || !TRACE_MEDIA_URL_PATTERN.test(url)) return undefined;
  const type = mediaType(contentType);
  return type ? { url, contentType: type } : undefined;
}

/**
 * The media an output names by URL without a `mediaId` (API.md, Traces, "Media"): the output
 * itself when it is `{ url, contentType, … }` with a video, image or audio type, or the items
 * of an output that is an array of them; each url once. Nothing deeper: an output that holds a
 * media object inside another object names no media. Called for every span stored, so an
 * output that is not an object costs one `typeof`.
 */
export function uncopiedMediaIn(output: unknown): readonly MediaReference[] {
  if (typeof output !== 'object' || output === null) return NONE;
  if (!Array.isArray(output)) {
    const reference = uncopied(output);
    return reference ? [reference] : NONE;
  }
  const found = new Map<string, MediaReference>();
  for (const item of output) {
    const reference = uncopied(item);
    if (reference && !found.has(reference.url)) found.set(reference.url, reference);
  }
  return found.size ? [...found.values()] : NONE;
}

/**
 * `output` with `mediaId` set beside each `url` that `mediaIds` maps (the output itself or
 * its array's items, as uncopiedMediaIn reads them), where no `mediaId` is set yet; undefined
 * when that changes nothing (the output names none of them any more, or has them already).
 */
export function withMediaIds(output: unknown, mediaIds: ReadonlyMap<string, string>): unknown {
  const attach = (item: unknown): unknown => {
    if (!isRecord(item) || item.mediaId !== undefined || typeof item.url !== 'string') return item;
    const mediaId = mediaIds.get(item.url);
    return mediaId === undefined ? item : { ...item, mediaId };
  };
  if (Array.isArray(output)) {
    const items = output.map(attach);
    return items.some((item, i) => item !== output[i]) ? items : undefined;
  }
  const attached = attach(output);
  return attached === output ? undefined : attached;
}

/** Whether the output names (by `url`, as uncopiedMediaIn reads it) any of these media, copied or not. */
export function namesMediaUrl(output: unknown, urls: ReadonlySet<string>): boolean {
  const names = (item: unknown) => isRecord(item) && typeof item.url === 'string' && urls.has(item.url);
  return Array.isArray(output) ? output.some(names) : names(output);
}
