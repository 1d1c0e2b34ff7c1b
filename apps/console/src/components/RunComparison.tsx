import { useEffect, useState } from 'react';
import { everyItem, listTasks } from '../api';
import type { Run, Task } from '../api-types';
import { formatScore } from '../format';
import { Comparison, compareRuns, formatDelta, scoreSummary } from '../run-compare';
import { mediaOf } from '../media';
import { ErrorNotice } from './ErrorNotice';
import { SideBySide } from './SideBySide';
import { StatusBadge } from './StatusBadge';

const LABEL = { regression: 'regressed', improvement: 'improved', unchanged: 'unchanged', missing: 'in one run only' } as const;

/** Two runs side by side: every item's scores in both, the delta, regressions first. */
export function RunComparison({ benchmarkId, baseRun, otherRun, runs, onClose }: { benchmarkId: string; baseRun: string; otherRun: string; runs: Run[]; onClose(): void }) {
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [watching, setWatching] = useState<string | null>(null);
  const base = runs.find((r) => r.id === baseRun);
  const other = runs.find((r) => r.id === otherRun);

  useEffect(() => {
    let live = true;
    const tasksOf = (runId: string) => everyItem((cursor) => listTasks(benchmarkId, runId, cursor, 200));
    Promise.all([tasksOf(baseRun), tasksOf(otherRun)]).then(
      ([a, b]) => live && setComparison(compareRuns(a, b)),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [benchmarkId, baseRun, otherRun]);

  const watched = comparison?.items.find((i) => i.itemId === watching) ?? null;

  return (
    <section className="card" aria-label="Run comparison">
      <div className="card-head">
        <h2>
          Comparing <code>{baseRun}</code> → <code>{otherRun}</code>
        </h2>
        <button type="button" className="ghost" onClick={onClose}>
          Close comparison
        </button>
      </div>
      <ErrorNotice error={error} />
      {base && other && (
        <table className="data-table flat compare-summary">
          <caption className="visually-hidden">Scorer means in both runs</caption>
          <thead>
            <tr>
              <th scope="col">Scorer</th>
              <th scope="col" className="num">
                Base mean
              </th>
              <th scope="col" className="num">
                Other mean
              </th>
              <th scope="col" className="num">
                Δ mean
              </th>
              <th scope="col" className="num">
                Base pass rate
              </th>
              <th scope="col" className="num">
                Other pass rate
              </th>
            </tr>
          </thead>
          <tbody>
            {[...new Set([...Object.keys(base.scores), ...Object.keys(other.scores)])].map((name) => {
              const a = scoreSummary(base.scores, name);
              const b = scoreSummary(other.scores, name);
              const delta = a.mean != null && b.mean != null ? b.mean - a.mean : null;
              return (
                <tr key={name}>
                  <th scope="row">{name}</th>
                  <td className="num">{formatScore(a.mean)}</td>
                  <td className="num">{formatScore(b.mean)}</td>
                  <td className={`num delta${delta !== null && delta < 0 ? ' down' : delta ? ' up' : ''}`}>{formatDelta(delta)}</td>
                  <td className="num">{a.passRate == null ? '—' : `${Math.round(a.passRate * 100)} %`}</td>
                  <td className="num">{b.passRate == null ? '—' : `${Math.round(b.passRate * 100)} %`}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {!comparison ? (
        !error && <p className="muted pad">Loading both runs' tasks…</p>
      ) : (
        <>
          <p className="pad compare-counts" role="status">
            <strong>{comparison.counts.regression}</strong> regressed · <strong>{comparison.counts.improvement}</strong> improved · <strong>{comparison.counts.unchanged}</strong>{' '}
            unchanged
            {comparison.counts.missing ? (
              <>
                {' '}
                · <strong>{comparison.counts.missing}</strong> in one run only
              </>
            ) : null}
          </p>
          {watched && <SideBySide key={watched.itemId} item={watched} baseRun={baseRun} otherRun={otherRun} onClose={() => setWatching(null)} />}
          <table className="data-table flat compare">
            <caption className="visually-hidden">Score changes per item, regressions first</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  Item
                </th>
                <th scope="col">Change</th>
                {comparison.scorers.map((s) => (
                  <th key={s} scope="col" className="num">
                    {s}: base → other (Δ)
                  </th>
                ))}
                <th scope="col">Status</th>
                <th scope="col">Media</th>
              </tr>
            </thead>
            <tbody>
              {comparison.items.map((item) => (
                <tr key={item.itemId} className={`change-${item.change}`} data-item-index={item.itemIndex}>
                  <td className="num">{item.itemIndex}</td>
                  <td>
                    <span className={`badge change-badge-${item.change}`}>{LABEL[item.change]}</span>
                  </td>
                  {item.scores.map((s) => (
                    <td key={s.scorer} className="num">
                      {formatScore(s.base)} → {formatScore(s.other)}{' '}
                      <span className={`delta${s.delta !== null && s.delta < 0 ? ' down' : s.delta ? ' up' : ''}`}>({formatDelta(s.delta)})</span>
                    </td>
                  ))}
                  <td>
                    {item.base && <StatusBadge status={item.base.status} />} → {item.other && <StatusBadge status={item.other.status} />}
                  </td>
                  <td>
                    {namesStoredMedia(item.base) || namesStoredMedia(item.other) ? (
                      <button type="button" className="link" onClick={() => setWatching(item.itemId)} aria-pressed={watching === item.itemId}>
                        Watch item {item.itemIndex} side by side
                      </button>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/** Whether a task's output names a media the service holds (what the side-by-side players play). */
function namesStoredMedia(task: Task | null): boolean {
  return !!task && mediaOf({ output: task.output }).some((m) => m.mediaId !== null);
}
