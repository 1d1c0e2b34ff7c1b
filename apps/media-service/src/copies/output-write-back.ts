import type { TraceMediaAttachment } from '@cinetrace/contracts';
import type { MediaCopy } from '../store/media-copy.entity';
import type { WriteBackStage } from '../store/media-copy-target.entity';
import type { Media } from '../store/media.entity';

/** What to write into one output, from the copies of every url it named. */
export interface OutputWriteBack {
  /** The media to write beside their urls (and the span's seconds); null while none is copied. */
  attachment: TraceMediaAttachment | null;
  /** How far that takes the output: `done` once every copy has failed or its media's probe settled. */
  stage: WriteBackStage;
}

/** Media whose probed duration counts as `usage.videoSeconds`: moving pictures and sound, not stills. */
const PLAYS = /^(video|audio)\//;

/**
 * The write-back of an output (a span's, or the trace's own: `spanId` null): `mediaId` for each
 * url copied, and for a span the probed seconds of its ready video and audio media, summed
 * (API.md: "usage.videoSeconds of a span whose output is ready media is the probed duration").
 */
export function outputWriteBack(spanId: string | null, copies: readonly MediaCopy[], media: ReadonlyMap<string, Media>): OutputWriteBack {
  const copied = copies.filter((c) => c.status === 'copied' && c.mediaId !== null);
  const settled = copies.every((c) => c.status === 'failed' || (c.status === 'copied' && media.get(c.mediaId!)?.status !== 'pending'));
  const stage: WriteBackStage = settled ? 'done' : copied.length ? 'media' : 'none';
  if (!copied.length) return { attachment: null, stage };
  const playing = copied.map((c) => media.get(c.mediaId!)).filter((m): m is Media => m?.status === 'ready' && m.probe?.durationMs != null && PLAYS.test(m.contentType));
  const milliseconds = playing.reduce((sum, m) => sum + m.probe!.durationMs!, 0);
  return {
    attachment: {
      spanId,
      media: copied.map((c) => ({ url: c.url, mediaId: c.mediaId! })),
      videoSeconds: spanId !== null && playing.length ? milliseconds / 1000 : null,
    },
    stage,
  };
}
