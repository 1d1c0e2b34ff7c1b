import type { SpanInput, TraceInput, TraceMediaAttachment } from '@cinetrace/contracts';
import type { TraceState } from './merge-trace';
import { namesMediaUrl, withMediaIds } from './media-references';

/**
 * The trace input that writes media-service's attachments into the trace as it stands: each
 * output gets `mediaId` beside the urls copied (where it still names them and has none), and
 * a span whose output names its media gets `usage.videoSeconds` = their probed seconds (the
 * contract's "is the probed duration": it replaces a value the client sent). Merged like any
 * input, so the trace's summaries follow; an output replaced since by one that names none of
 * the urls is left alone.
 */
export function mediaAttachmentInput(state: TraceState, attachments: readonly TraceMediaAttachment[]): TraceInput {
  const input: TraceInput = { id: state.trace.id, spans: [] };
  for (const attachment of attachments) {
    const mediaIds = new Map(attachment.media.map((m) => [m.url, m.mediaId]));
    if (attachment.spanId === null) {
      const output = withMediaIds(input.output ?? state.trace.output, mediaIds);
      if (output !== undefined) input.output = output;
      continue;
    }
    const span = state.spans.get(attachment.spanId);
    if (!span) continue;
    const patch: SpanInput = { id: span.id };
    const output = withMediaIds(span.output, mediaIds);
    if (output !== undefined) patch.output = output;
    const seconds = attachment.videoSeconds;
    if (seconds !== null && span.usage?.videoSeconds !== seconds && namesMediaUrl(span.output, new Set(mediaIds.keys()))) {
      patch.usage = { ...span.usage, videoSeconds: seconds };
    }
    if (patch.output !== undefined || patch.usage !== undefined) input.spans.push(patch);
  }
  return input;
}
