/**
 * Media named in trace and span outputs (docs/api-reference.md, "Media in trace outputs"):
 * trace-ingest hands media-service the references it stored (`media.copies.request`), and
 * media-service hands each output back the media it copied, as a record of the trace stream
 * (`TraceIngestMessage.media`). Internal messages: the project is the stored trace's.
 */

/**
 * A URL a trace output's media is copied from: http(s), printable ASCII (an encoded URL; an
 * index key holds it whole), at most MEDIA_URL_MAX characters.
 */
export const TRACE_MEDIA_URL_PATTERN = /^https?:\/\/[\x21-\x7e]+$/i;

/** Where a media reference sits: a span's output, or the trace's own (`spanId` null). */
export interface TraceOutputPlace {
  traceId: string;
  spanId: string | null;
}

/** A `{ url, contentType }` of a stored output that has no `mediaId` yet. */
export interface TraceMediaReference extends TraceOutputPlace {
  url: string;
  contentType: string;
}

export interface MediaCopiesRequest {
  projectId: string;
  references: TraceMediaReference[];
}

export interface MediaCopiesAcceptedView {
  accepted: number;
}

/** One output's copies: the media of each url it named, and, once probed, the seconds of those that play. */
export interface TraceMediaAttachment {
  /** The span whose output named the media; null for the trace's own output. */
  spanId: string | null;
  media: { url: string; mediaId: string }[];
  /** The probed durations of the output's ready video and audio media, summed; null while none is ready (nothing to write). */
  videoSeconds: number | null;
}
