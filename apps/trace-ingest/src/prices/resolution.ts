/**
 * Resolutions as price entries name them and as spans carry them, reduced to keys compared
 * by equality: `p1080` (the picture's shorter side: `1080p`; `4k` is `p2160`, `8k` `p4320`)
 * and `d1024x1792` (both sides, shorter first, for prices that tell 1024x1024 from 1024x1792).
 */
export type ResolutionKey = `p${number}` | `d${number}x${number}`;

/** What a span's picture matches: its exact size when known, and its shorter side. */
export interface SpanResolution {
  size: ResolutionKey | null;
  shortSide: ResolutionKey;
}

/** The key of an entry's `resolution` (already checked against RESOLUTION_PATTERN). */
export function resolutionKey(label: string): ResolutionKey {
  const parsed = parseLabel(label)!;
  return parsed.size ?? parsed.shortSide;
}

/**
 * A span's resolution: its media `output` (the object, or the first of an array) by its
 * `width` and `height`, else its `resolution` (`1080p`, `4k`, `1920x1080`); else the OTLP
 * video attributes `cinetrace.video.width`/`height`. Null when none says.
 */
export function spanResolution(output: unknown, attributes: Record<string, unknown> | null | undefined): SpanResolution | null {
  const media: unknown = Array.isArray(output) ? output[0] : output;
  if (media !== null && typeof media === 'object') {
    const { width, height, resolution } = media as Record<string, unknown>;
    const sized = fromSize(width, height);
    if (sized) return sized;
    if (typeof resolution === 'string') {
      const labelled = parseLabel(resolution);
      if (labelled) return labelled;
    }
  }
  return attributes ? fromSize(attributes['cinetrace.video.width'], attributes['cinetrace.video.height']) : null;
}

const LABEL = /^(?:(\d{2,5})p|([48])k|(\d{2,5})x(\d{2,5}))$/i;

function parseLabel(label: string): SpanResolution | null {
  const m = LABEL.exec(label.trim());
  if (!m) return null;
  if (m[1]) return { size: null, shortSide: `p${Number(m[1])}` };
  if (m[2]) return { size: null, shortSide: m[2] === '4' ? 'p2160' : 'p4320' };
  return fromSize(Number(m[3]), Number(m[4]));
}

function fromSize(width: unknown, height: unknown): SpanResolution | null {
  if (!isSide(width) || !isSide(height)) return null;
  const short = Math.min(width, height);
  return { size: `d${short}x${Math.max(width, height)}`, shortSide: `p${short}` };
}

const isSide = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 100_000;
