import { useState } from 'react';
import { ApiError, createAnnotation } from '../api';
import type { NewAnnotation } from '../api-types';
import { ErrorNotice } from './ErrorNotice';

/** A range from the player's position lasts this long unless changed. */
const DEFAULT_RANGE_MS = 1000;

const seconds = (ms: number) => (ms / 1000).toFixed(1);

/**
 * Marks a range of the media: from the player's position (or typed seconds), a label and an
 * optional score and comment. The API checks the range and fields; its problem is shown as is.
 */
export function AnnotationForm({ mediaId, durationMs, currentMs, onAdded }: { mediaId: string; durationMs: number; currentMs(): number; onAdded(): void }) {
  const [start, setStart] = useState('0.0');
  const [end, setEnd] = useState(seconds(Math.min(DEFAULT_RANGE_MS, durationMs)));
  const [label, setLabel] = useState('');
  const [score, setScore] = useState('');
  const [comment, setComment] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<unknown>(null);

  function fromPlayer() {
    const at = Math.min(currentMs(), durationMs);
    setStart(seconds(at));
    setEnd(seconds(Math.min(at + DEFAULT_RANGE_MS, durationMs)));
  }

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(null);
    const body: NewAnnotation = {
      startMs: Math.round(Number(start) * 1000),
      endMs: Math.round(Number(end) * 1000),
      label: label.trim(),
      ...(score.trim() ? { score: Number(score) } : {}),
      ...(comment.trim() ? { comment: comment.trim() } : {}),
    };
    try {
      await createAnnotation(mediaId, body);
      setLabel('');
      setScore('');
      setComment('');
      onAdded();
    } catch (e) {
      setError(e);
    } finally {
      setSaving(false);
    }
  }

  return (
    <details className="annotation-form">
      <summary>Add an annotation</summary>
      <form onSubmit={(e) => void save(e)}>
        <div className="annotation-fields">
          <label className="field">
            <span>Start (s)</span>
            <input type="number" min={0} step={0.1} value={start} onChange={(e) => setStart(e.target.value)} required />
          </label>
          <label className="field">
            <span>End (s)</span>
            <input type="number" min={0} step={0.1} value={end} onChange={(e) => setEnd(e.target.value)} required />
          </label>
          <button type="button" className="secondary" onClick={fromPlayer}>
            From the player
          </button>
          <label className="field wide">
            <span>Label</span>
            <input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} required />
          </label>
          <label className="field">
            <span>Score (0–1, optional)</span>
            <input type="number" min={0} max={1} step={0.01} value={score} onChange={(e) => setScore(e.target.value)} />
          </label>
          <label className="field wide">
            <span>Comment (optional)</span>
            <input value={comment} onChange={(e) => setComment(e.target.value)} />
          </label>
        </div>
        <ErrorNotice error={error} />
        {error instanceof ApiError && error.problem.errors?.length ? (
          <ul className="field-errors" aria-label="What to correct">
            {error.problem.errors.map((e) => (
              <li key={e.path}>
                <code>{e.path}</code>: {e.message}
              </li>
            ))}
          </ul>
        ) : null}
        <button type="submit" className="primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save annotation'}
        </button>
      </form>
    </details>
  );
}
