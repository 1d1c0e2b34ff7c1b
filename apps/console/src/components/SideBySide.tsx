import { useRef } from 'react';
import type { Task } from '../api-types';
import { formatScore } from '../format';
import { mediaOf } from '../media';
import type { ComparedItem } from '../run-compare';
import { findingsOfScores } from '../video-marks';
import { MediaView } from './MediaView';

/** One item's outputs in two runs, played side by side, each with its scores and video_qa findings. */
export function SideBySide({ item, baseRun, otherRun, onClose }: { item: ComparedItem; baseRun: string; otherRun: string; onClose(): void }) {
  const root = useRef<HTMLElement>(null);
  // Both from the start at once: what a reader compares two renders by.
  function playBoth() {
    const players = [...(root.current?.querySelectorAll('video') ?? [])];
    for (const player of players) player.currentTime = 0;
    for (const player of players) void player.play().catch(() => undefined);
  }
  return (
    <section ref={root} className="side-by-side" aria-label={`Item ${item.itemIndex} side by side`}>
      <div className="card-head">
        <h3>Item {item.itemIndex}: both runs' outputs</h3>
        <div className="inline-form">
          <button type="button" className="secondary" onClick={playBoth}>
            Play both
          </button>
          <button type="button" className="ghost" onClick={onClose}>
            Close
          </button>
        </div>
      </div>
      <div className="side-by-side-grid">
        <RunOutput title="Base run" runId={baseRun} task={item.base} />
        <RunOutput title="Other run" runId={otherRun} task={item.other} />
      </div>
    </section>
  );
}

function RunOutput({ title, runId, task }: { title: string; runId: string; task: Task | null }) {
  const media = task ? mediaOf({ output: task.output }).slice(0, 1) : [];
  return (
    <div className="run-output" role="group" aria-label={`${title} ${runId}`}>
      <h4>
        {title} <code>{runId}</code>
      </h4>
      {!task ? (
        <p className="muted">This run has no task for the item.</p>
      ) : media.length ? (
        <MediaView assets={media} findings={findingsOfScores(task.scores)} compact />
      ) : (
        <p className="muted">The output names no media.</p>
      )}
      {task && (
        <ul className="task-scores" aria-label={`Scores in ${title.toLowerCase()}`}>
          {task.scores.map((s) => (
            <li key={s.scorer} className={s.passed === false ? 'error-text' : undefined}>
              <span className="strong">{s.scorer}</span> {s.error ? `error: ${s.error}` : formatScore(s.score)}
              {s.passed !== null && !s.error ? <span className="muted"> ({s.passed ? 'passed' : 'failed'})</span> : null}
            </li>
          ))}
          {!task.scores.length && <li className="muted">No scores.</li>}
        </ul>
      )}
    </div>
  );
}
