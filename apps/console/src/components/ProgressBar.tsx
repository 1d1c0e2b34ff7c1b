import type { RunCounts } from '../api-types';
import { countsInWords, runProgress } from '../run-progress';

/** A run's tasks as a stacked bar (ended, running, pending), with the counts in words beside it. */
export function ProgressBar({ counts, label }: { counts: RunCounts; label: string }) {
  const progress = runProgress(counts);
  return (
    <div className="progress">
      <div
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
        aria-valuetext={`${progress.done} of ${progress.total} tasks ended`}
      >
        {progress.segments.map((s) => (
          <span key={s.status} className={`progress-seg seg-${s.status}`} style={{ width: `${s.percent}%` }} />
        ))}
      </div>
      <span className="progress-text">
        <strong>
          {progress.done}/{progress.total}
        </strong>{' '}
        <span className="muted">{countsInWords(counts)}</span>
      </span>
    </div>
  );
}
