import type { MediaAsset } from '../media';

/** Plays each asset in place: the URLs come from the trace's data (the CSP allows https: media for that). */
export function MediaView({ assets }: { assets: MediaAsset[] }) {
  if (!assets.length) return null;
  return (
    <div className="media-list">
      {assets.map((asset, i) => (
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
      ))}
    </div>
  );
}
