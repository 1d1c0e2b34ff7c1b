import { useCallback, useEffect, useState } from 'react';
import { getMediaFrame } from '../api';
import type { Keyframe } from '../api-types';
import { useBlobUrl } from '../hooks/useBlobUrl';
import { formatMediaTime } from '../video-marks';

/** Frames render on the service two at a time: the strip asks for them a few at a time, in order. */
const FRAMES_AT_ONCE = 3;

/** The storyboard's keyframes, each labelled with its time; clicking one seeks the player there. */
export function Filmstrip({ mediaId, keyframes, currentMs, onSeek }: { mediaId: string; keyframes: Keyframe[]; currentMs: number; onSeek(ms: number): void }) {
  // How many frames may be fetched so far: grows as frames arrive, so the first come first.
  const [allowed, setAllowed] = useState(FRAMES_AT_ONCE);
  const settled = useCallback(() => setAllowed((n) => n + 1), []);
  useEffect(() => setAllowed(FRAMES_AT_ONCE), [mediaId]);
  // The keyframe being played: the last one at or before the player's time.
  const current = keyframes.reduce((at, k, i) => (k.atMs <= currentMs ? i : at), 0);
  return (
    <ol className="filmstrip" aria-label={`Storyboard: ${keyframes.length} keyframes`}>
      {keyframes.map((k, i) => (
        <li key={k.atMs}>
          <button
            type="button"
            className={`keyframe${i === current ? ' current' : ''}`}
            onClick={() => onSeek(k.atMs)}
            aria-label={`Play from ${formatMediaTime(k.atMs)}`}
            aria-current={i === current ? 'true' : undefined}
            data-at-ms={k.atMs}
          >
            <Frame mediaId={mediaId} atMs={k.atMs} fetch={i < allowed} onSettled={settled} />
            <span className="keyframe-time">{formatMediaTime(k.atMs)}</span>
          </button>
        </li>
      ))}
    </ol>
  );
}

function Frame({ mediaId, atMs, fetch, onSettled }: { mediaId: string; atMs: number; fetch: boolean; onSettled(): void }) {
  const load = useCallback((signal: AbortSignal) => getMediaFrame(mediaId, atMs, signal), [mediaId, atMs]);
  const { url, error } = useBlobUrl(fetch ? load : null);
  const done = url !== null || error !== null;
  useEffect(() => {
    if (done) onSettled();
  }, [done, onSettled]);
  if (url) return <img src={url} alt="" />;
  return <span className="frame-placeholder">{error ? 'no frame' : ''}</span>;
}
