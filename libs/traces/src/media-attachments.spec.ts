import type { TraceInput } from '@cinetrace/contracts';
import { mediaAttachmentInput } from './media-attachments';
import { mergeTrace, type TraceState } from './merge-trace';

const T0 = 1_763_800_000_000;
const CLIP = 'https://cdn.example/renders/shot-1.mp4?sig=abc';
const video = { url: CLIP, contentType: 'video/mp4' };

/** A stored trace as the store would hold it after these inputs. */
function stored(input: TraceInput): TraceState {
  const merged = mergeTrace('prj_1', undefined, input, T0);
  return { trace: merged.trace, spans: new Map(merged.changedSpans.map((s) => [s.id, s])) };
}

/** The trace after the attachments' input is merged into `state`. */
function attached(state: TraceState, ...attachments: Parameters<typeof mediaAttachmentInput>[1]) {
  const input = mediaAttachmentInput(state, attachments);
  return { input, ...mergeTrace('prj_1', state, input, T0 + 1000) };
}

describe('mediaAttachmentInput', () => {
  const trace = () =>
    stored({
      id: 't',
      output: [video],
      spans: [
        { id: 'render', name: 'render', startTime: T0, output: video, usage: { videoSeconds: 5, images: 1 } },
        { id: 'plan', name: 'plan', startTime: T0, output: 'shot list', usage: { inputTokens: 10 } },
      ],
    });

  it("writes mediaId beside the url and the probed seconds into the span's usage, and the trace's sums follow", () => {
    const state = trace();
    const { trace: after, changedSpans } = attached(state, { spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 });
    expect(changedSpans).toHaveLength(1);
    expect(changedSpans[0]).toMatchObject({ id: 'render', output: { ...video, mediaId: 'med_1' }, usage: { videoSeconds: 2, images: 1 } });
    expect(after.usage).toEqual({ videoSeconds: 2, images: 1, inputTokens: 10 });
    expect(after.spanCount).toBe(2);
  });

  it("writes mediaId into the trace's own output (no usage of its own)", () => {
    const { input, trace: after } = attached(trace(), { spanId: null, media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: null });
    expect(input.spans).toEqual([]);
    expect(after.output).toEqual([{ ...video, mediaId: 'med_1' }]);
  });

  it('writes only mediaId while the probe runs (videoSeconds null), and only the seconds once the mediaId is there', () => {
    const first = attached(trace(), { spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: null });
    expect(first.changedSpans[0]).toMatchObject({ output: { ...video, mediaId: 'med_1' }, usage: { videoSeconds: 5, images: 1 } });
    const state = { trace: first.trace, spans: new Map(first.changedSpans.map((s) => [s.id, s])) };
    const second = attached(state, { spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 });
    expect(second.input.spans).toEqual([{ id: 'render', usage: { videoSeconds: 2, images: 1 } }]);
  });

  it('leaves an output replaced since by one that names none of the urls, and a span no longer stored', () => {
    const state = stored({
      id: 't',
      spans: [{ id: 'render', name: 'render', startTime: T0, output: { url: 'https://cdn.example/retake.mp4', contentType: 'video/mp4' }, usage: { videoSeconds: 5 } }],
    });
    const { input, changed } = attached(
      state,
      { spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 },
      { spanId: 'gone', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 },
    );
    expect(input).toEqual({ id: 't', spans: [] });
    expect(changed).toBe(false);
  });

  it('changes nothing when applied twice (a redelivered record)', () => {
    const attachment = { spanId: 'render', media: [{ url: CLIP, mediaId: 'med_1' }], videoSeconds: 2 };
    const once = attached(trace(), attachment);
    const state = { trace: once.trace, spans: new Map([...trace().spans, ...once.changedSpans.map((s) => [s.id, s] as const)]) };
    expect(attached(state, attachment).changed).toBe(false);
  });
});
