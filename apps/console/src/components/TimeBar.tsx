import type { Annotation } from '../api-types';
import { formatScore } from '../format';
import { type Finding, formatMediaRange, formatMediaTime, placeRanges, type Placed } from '../video-marks';

const LANE_PX = 14;

/**
 * The media's time under its player: annotations on one track, video_qa findings on another,
 * each a range one can point at or focus (its label, score and comment show) and click (the
 * player seeks to its start); a line follows the player's time.
 */
export function TimeBar({
  durationMs,
  annotations,
  findings,
  currentMs,
  onSeek,
}: {
  durationMs: number;
  annotations: Annotation[];
  findings: Finding[];
  currentMs: number;
  onSeek(ms: number): void;
}) {
  const playheadPct = Math.min(Math.max(currentMs / durationMs, 0), 1) * 100;
  return (
    <div className="time-bar" role="group" aria-label="Time bar">
      <div className="time-scale" aria-hidden="true">
        <span>{formatMediaTime(0)}</span>
        <span>{formatMediaTime(durationMs)}</span>
      </div>
      <Track name="Annotations" empty="No annotations." placed={placeRanges(annotations, durationMs)} playheadPct={playheadPct}>
        {(a) => (
          <Mark
            key={a.item.id}
            placed={a}
            className="mark-annotation"
            text={`${a.item.label}, ${formatMediaRange(a.item.startMs, a.item.endMs)}${a.item.score !== null ? `, score ${formatScore(a.item.score)}` : ''}${a.item.comment ? `: ${a.item.comment}` : ''}`}
            title={a.item.label}
            lines={[formatMediaRange(a.item.startMs, a.item.endMs), a.item.score !== null ? `score ${formatScore(a.item.score)}` : null, a.item.comment]}
            onSeek={onSeek}
          />
        )}
      </Track>
      {findings.length > 0 && (
        <Track name="Findings" empty="" placed={placeRanges(findings, durationMs)} playheadPct={playheadPct}>
          {(f, i) => (
            <Mark
              key={`${f.item.scorer}-${f.item.check}-${i}`}
              placed={f}
              className={`mark-finding check-${f.item.check.replace(/[^a-z]/gi, '')}`}
              text={`${f.item.check} (${f.item.scorer}), ${formatMediaRange(f.item.startMs, f.item.endMs)}${f.item.value !== null ? `, value ${f.item.value}` : ''}`}
              title={f.item.check}
              lines={[formatMediaRange(f.item.startMs, f.item.endMs), `found by ${f.item.scorer}`, f.item.value !== null ? `value ${f.item.value}` : null]}
              onSeek={onSeek}
            />
          )}
        </Track>
      )}
    </div>
  );
}

function Track<T>({
  name,
  empty,
  placed,
  playheadPct,
  children,
}: {
  name: string;
  empty: string;
  placed: Placed<T>[];
  playheadPct: number;
  children(placed: Placed<T>, index: number): React.ReactNode;
}) {
  const lanes = Math.max(1, ...placed.map((p) => p.lane + 1));
  return (
    <div className="time-track">
      <span className="track-name">{name}</span>
      <ul className="track-lanes" aria-label={name} style={{ height: lanes * LANE_PX + 4 }}>
        {placed.map(children)}
        {!placed.length && empty && <li className="track-empty muted">{empty}</li>}
        <li className="playhead" aria-hidden="true" style={{ left: `${playheadPct}%` }} />
      </ul>
    </div>
  );
}

function Mark<T>({
  placed,
  className,
  text,
  title,
  lines,
  onSeek,
}: {
  placed: Placed<T & { startMs: number }>;
  className: string;
  text: string;
  title: string;
  lines: Array<string | null>;
  onSeek(ms: number): void;
}) {
  return (
    <li className="mark-slot" style={{ left: `${placed.leftPct}%`, width: `${placed.widthPct}%`, top: placed.lane * LANE_PX + 2 }}>
      <button type="button" className={`mark ${className}`} aria-label={text} onClick={() => onSeek(placed.item.startMs)} />
      {/* Beside the button, not in it: its name is the label above, which says the same. */}
      <span className="mark-tip" aria-hidden="true">
        <strong>{title}</strong>
        {lines.filter(Boolean).map((line, i) => (
          <span key={i}>{line}</span>
        ))}
      </span>
    </li>
  );
}
