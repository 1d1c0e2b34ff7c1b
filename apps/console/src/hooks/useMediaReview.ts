import { useCallback, useEffect, useState } from 'react';
import { everyItem, getMedia, getStoryboard, listAnnotations } from '../api';
import type { Annotation, Keyframe, Media } from '../api-types';

/** At most this many annotations are read for one media's time bar. */
const MAX_ANNOTATIONS = 500;
/** A media still being probed is read again this often. */
const PENDING_POLL_MS = 2000;

export interface MediaReview {
  media: Media | null;
  mediaError: unknown;
  /** null while computing (or not asked for); [] when the media has none (audio, failed). */
  keyframes: Keyframe[] | null;
  storyboardError: unknown;
  annotations: Annotation[] | null;
  annotationsError: unknown;
  /** Reads the annotations again (after one was added). */
  reloadAnnotations(): void;
}

/**
 * What the media panel shows of a stored media: its row (status, probe), its storyboard's
 * keyframes (videos only) and its annotations, each read on its own so one failing (a
 * storyboard still computing) leaves the others shown.
 */
export function useMediaReview(mediaId: string, withStoryboard: (media: Media) => boolean): MediaReview {
  const [media, setMedia] = useState<Media | null>(null);
  const [mediaError, setMediaError] = useState<unknown>(null);
  const [keyframes, setKeyframes] = useState<Keyframe[] | null>(null);
  const [storyboardError, setStoryboardError] = useState<unknown>(null);
  const [annotations, setAnnotations] = useState<Annotation[] | null>(null);
  const [annotationsError, setAnnotationsError] = useState<unknown>(null);
  const [reads, setReads] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      getMedia(mediaId, abort.signal).then(
        (m) => {
          if (abort.signal.aborted) return;
          setMedia(m);
          if (m.status === 'pending') timer = setTimeout(read, PENDING_POLL_MS);
          else onceRead(m);
        },
        (e: unknown) => !abort.signal.aborted && setMediaError(e),
      );
    const onceRead = (m: Media) => {
      if (m.status !== 'ready' || !withStoryboard(m)) return setKeyframes([]);
      getStoryboard(mediaId, abort.signal).then(
        (s) => !abort.signal.aborted && setKeyframes(s.data),
        (e: unknown) => !abort.signal.aborted && setStoryboardError(e),
      );
    };
    void read();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [mediaId, withStoryboard]);

  useEffect(() => {
    const abort = new AbortController();
    everyItem((cursor) => listAnnotations(mediaId, cursor, 100, abort.signal), MAX_ANNOTATIONS).then(
      (list) => !abort.signal.aborted && (setAnnotations(list), setAnnotationsError(null)),
      (e: unknown) => !abort.signal.aborted && setAnnotationsError(e),
    );
    return () => abort.abort();
  }, [mediaId, reads]);

  const reloadAnnotations = useCallback(() => setReads((n) => n + 1), []);
  return { media, mediaError, keyframes, storyboardError, annotations, annotationsError, reloadAnnotations };
}
