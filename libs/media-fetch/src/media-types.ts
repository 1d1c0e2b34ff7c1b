import { MEDIA_TYPE_PATTERN } from '@cinetrace/contracts';

/** The media type a Content-Type header names when it is video, image or audio, lowercased and without parameters (`video/mp4; codecs=…` → `video/mp4`); else undefined. */
export function mediaTypeOf(header: string | undefined): string | undefined {
  const type = (header ?? '').split(';')[0].trim().toLowerCase();
  return MEDIA_TYPE_PATTERN.test(type) ? type : undefined;
}
