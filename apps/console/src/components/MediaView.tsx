import type { MediaAsset } from '../media';
import type { Finding } from '../video-marks';
import { MediaPanel } from './MediaPanel';

/**
 * Plays each asset in place. One the service holds (`mediaId`) gets the media panel, played
 * from our copy; one named by URL only plays from that URL (the CSP allows https: media for that).
 */
export function MediaView({ assets, findings = [], compact = false }: { assets: MediaAsset[]; findings?: Finding[]; compact?: boolean }) {
  if (!assets.length) return null;
  return (
    <div className="media-list">
      {assets.map((asset, i) =>
        asset.mediaId !== null ? (
          <MediaPanel key={`${asset.path}-${i}`} asset={asset} findings={asset.kind === 'image' ? [] : findings} compact={compact} />
        ) : (
          <figure key={`${asset.path}-${i}`} className="media">
            {asset.kind === 'video' && (
              <video controls preload="metadata" src={asset.url} aria-label={`Video ${asset.path}`}>
                <track kind="captions" />
              </video>
            )}
            {asset.kind === 'image' && <img src={asset.url} alt={`Image ${asset.path}`} loading="lazy" />}
            {asset.kind === 'audio' && <audio controls preload="metadata" src={asset.url} aria-label={`Audio ${asset.path}`} />}
            <figcaption>
              <code>{asset.path}</code> · {asset.contentType} ·{' '}
              <a href={asset.url} target="_blank" rel="noreferrer noopener">
                open
              </a>
            </figcaption>
          </figure>
        ),
      )}
    </div>
  );
}
