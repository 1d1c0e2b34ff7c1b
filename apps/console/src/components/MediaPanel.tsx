import { useCallback, useRef, useState } from 'react';
import { getMediaContent } from '../api';
import type { Media } from '../api-types';
import { formatDuration } from '../format';
import { useBlobUrl } from '../hooks/useBlobUrl';
import { useMediaReview } from '../hooks/useMediaReview';
import type { MediaKind, StoredMedia } from '../media';
import { kindOf, playbackOf } from '../media-playback';
import type { Finding } from '../video-marks';
import { AnnotationForm } from './AnnotationForm';
import { ErrorNotice } from './ErrorNotice';
import { Filmstrip } from './Filmstrip';
import { TimeBar } from './TimeBar';

const isVideo = (media: Media) => media.contentType.toLowerCase().startsWith('video/');
const never = () => false;

/**
 * A media the service holds: its probe, the player (our copy), a time bar of its annotations
 * and video_qa findings and, unless `compact`, the storyboard's filmstrip and a form to add an
 * annotation. `compact` is the side-by-side comparison's: player, probe and time bar.
 */
export function MediaPanel({ asset, findings = [], compact = false, label }: { asset: StoredMedia; findings?: Finding[]; compact?: boolean; label?: string }) {
  const review = useMediaReview(asset.mediaId, compact ? never : isVideo);
  const { media } = review;
  const kind = kindOf(asset, media);
  const player = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const [currentMs, setCurrentMs] = useState(0);
  const seek = useCallback((ms: number) => {
    if (player.current) player.current.currentTime = ms / 1000;
    setCurrentMs(ms);
  }, []);
  const durationMs = media?.probe?.durationMs ?? null;
  const timed = kind !== 'image' && durationMs !== null && durationMs > 0;

  return (
    <section className={`media-panel${compact ? ' compact' : ''}`} aria-label={label ?? `Media ${asset.path}`} data-media-id={asset.mediaId}>
      <ErrorNotice error={review.mediaError} />
      {media && <ProbeFacts media={media} />}
      {(media !== null || review.mediaError !== null) && <Player asset={asset} media={media} kind={kind} playerRef={player} onTime={(ms) => setCurrentMs(ms)} />}
      {timed && review.annotations && <TimeBar durationMs={durationMs} annotations={review.annotations} findings={findings} currentMs={currentMs} onSeek={seek} />}
      {review.annotationsError ? <ErrorNotice error={review.annotationsError} /> : null}
      {!compact && kind === 'video' && (
        <>
          {review.keyframes?.length ? <Filmstrip mediaId={asset.mediaId} keyframes={review.keyframes} currentMs={currentMs} onSeek={seek} /> : null}
          {!review.keyframes && !review.storyboardError && media?.status === 'ready' && (
            <p className="muted hint" role="status">
              Computing the storyboard…
            </p>
          )}
          <ErrorNotice error={review.storyboardError} />
        </>
      )}
      {!compact && timed && media?.status === 'ready' && (
        <AnnotationForm
          mediaId={asset.mediaId}
          durationMs={durationMs}
          currentMs={() => (player.current ? Math.round(player.current.currentTime * 1000) : currentMs)}
          onAdded={review.reloadAnnotations}
        />
      )}
    </section>
  );
}

/** The probe's facts: what a reviewer checks first (duration, size, rate, codecs, sound). */
function ProbeFacts({ media }: { media: Media }) {
  const probe = media.probe;
  if (media.status !== 'ready' || !probe)
    return (
      <p className={media.status === 'failed' ? 'notice error' : 'muted hint'} role="status">
        {media.status === 'failed' ? `The stored copy is not playable media: ${media.error ?? 'its probe failed'}.` : 'Probing the stored copy…'}
      </p>
    );
  const facts: Array<[string, string]> = [
    ['Duration', probe.durationMs === null ? '—' : formatDuration(probe.durationMs)],
    ['Resolution', probe.width && probe.height ? `${probe.width}×${probe.height}` : '—'],
    ['Frame rate', probe.fps === null ? '—' : `${Math.round(probe.fps * 100) / 100} fps`],
    ['Codecs', [probe.videoCodec, probe.audioCodec].filter(Boolean).join(' + ') || '—'],
    ['Audio', probe.hasAudio ? (probe.audioCodec ?? 'yes') : 'none'],
    ['Size', formatBytes(media.bytes)],
  ];
  return (
    <dl className="facts probe" aria-label="Probe">
      {facts.map(([name, value]) => (
        <div key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Player({
  asset,
  media,
  kind,
  playerRef,
  onTime,
}: {
  asset: StoredMedia;
  media: Media | null;
  kind: MediaKind | null;
  playerRef: React.RefObject<(HTMLVideoElement & HTMLAudioElement) | null>;
  onTime(ms: number): void;
}) {
  const wanted = playbackOf(asset, media);
  const load = useCallback((signal: AbortSignal) => getMediaContent(asset.mediaId, signal), [asset.mediaId]);
  const copy = useBlobUrl(wanted.from === 'copy' ? load : null);
  const playback = copy.error ? playbackOf(asset, media, true) : wanted;
  const src = playback.from === 'copy' ? copy.url : playback.from === 'url' ? playback.url : null;
  const name = `${kind === 'audio' ? 'Audio' : kind === 'image' ? 'Image' : 'Video'} ${asset.path}`;
  return (
    <figure className="media">
      {src && (kind === 'video' || kind === null) && (
        <video ref={playerRef} controls preload="metadata" src={src} aria-label={name} onTimeUpdate={(e) => onTime(e.currentTarget.currentTime * 1000)}>
          <track kind="captions" />
        </video>
      )}
      {src && kind === 'audio' && (
        <audio ref={playerRef} controls preload="metadata" src={src} aria-label={name} onTimeUpdate={(e) => onTime(e.currentTarget.currentTime * 1000)} />
      )}
      {src && kind === 'image' && <img src={src} alt={name} />}
      {!src && playback.from === 'copy' && (
        <p className="player-placeholder muted" role="status">
          Loading the stored copy…
        </p>
      )}
      <figcaption>
        <code>{asset.path}</code> · {media?.contentType ?? asset.contentType ?? 'media'} · <code>{asset.mediaId}</code>
        {playback.from !== 'copy' && <span className="playback-note"> · {playback.reason}</span>}
      </figcaption>
    </figure>
  );
}

/** 1.2 MB, 640 kB: a media's size. */
function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(1)} MB`;
  return `${(bytes / 1_000_000_000).toFixed(2)} GB`;
}
