import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { everyItem, getBenchmark, listRuns, listTasks, startRun } from '../api';
import type { Benchmark, Run, RunStatus, Task } from '../api-types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { ProgressBar } from '../components/ProgressBar';
import { RunComparison } from '../components/RunComparison';
import { StatusBadge } from '../components/StatusBadge';
import { formatCost, formatDuration, formatScore, formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';
import { navigate } from '../router';
import { scoreSummaries } from '../run-compare';
import { isActive, readAgain } from '../run-progress';

/** While a run is queued or running (and once after it ended), the page is read again this often; the task table after each read. */
export const RUN_POLL_MS = 1000;

export function BenchmarkPage({ id, search }: { id: string; search: string }) {
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const [benchmark, setBenchmark] = useState<Benchmark | null>(null);
  const [runs, setRuns] = useState<Run[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [starting, setStarting] = useState(false);
  const [tick, setTick] = useState(0);
  // Whether the last read calls for more (see readAgain): the task table is read after that read
  // answered, never alongside it, and the page once more after the read that finds a run ended,
  // so what the page shows last was all read after the end.
  const [followRuns, setFollowRuns] = useState(false);
  const [taskReads, setTaskReads] = useState(0);
  const statuses = useRef(new Map<string, RunStatus>());
  const base = `/benchmarks/${encodeURIComponent(id)}`;

  useEffect(() => {
    let live = true;
    Promise.all([getBenchmark(id), everyItem((cursor) => listRuns(id, cursor, 200), 1000)]).then(
      ([b, r]) => {
        if (!live) return;
        const again = r.some((run) => readAgain(statuses.current.get(run.id), run.status));
        statuses.current = new Map(r.map((run) => [run.id, run.status]));
        setBenchmark(b);
        setRuns(r);
        setError(null);
        setFollowRuns(again);
        if (again) setTaskReads((n) => n + 1);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [id, tick]);

  const active = runs?.some((r) => isActive(r.status)) ?? false;
  useEffect(() => {
    if (!followRuns) return;
    const timer = setTimeout(() => setTick((n) => n + 1), RUN_POLL_MS);
    return () => clearTimeout(timer);
  }, [followRuns, tick]);

  const runId = params.get('run') ?? runs?.[0]?.id ?? null;
  const run = runs?.find((r) => r.id === runId) ?? null;
  const compare = params.get('compare')?.split(',').filter(Boolean) ?? [];

  // Catches its own errors (shown as `error`): the button calls it with `void`, nothing to await.
  async function start() {
    setStarting(true);
    setError(null);
    try {
      const started = await startRun(id);
      navigate(`${base}?run=${encodeURIComponent(started.id)}`, { replace: true });
      setTick((n) => n + 1);
    } catch (e) {
      setError(e);
    } finally {
      setStarting(false);
    }
  }

  return (
    <section className="page">
      <p className="back">
        <Link to="/benchmarks">← All benchmarks</Link>
      </p>
      <div className="page-head">
        <h1>
          {benchmark?.name ?? 'Benchmark'} {benchmark && <StatusBadge status={benchmark.status} />}
        </h1>
        <button type="button" className="primary" onClick={() => void start()} disabled={!benchmark || starting || active}>
          {active ? 'Run in progress…' : starting ? 'Starting…' : 'Start run'}
        </button>
      </div>
      <ErrorNotice error={error} />
      {benchmark && (
        <dl className="facts card summary">
          <div>
            <dt>Target</dt>
            <dd>
              <code>{benchmark.target.type}</code>
            </dd>
          </div>
          <div>
            <dt>Dataset</dt>
            <dd>
              <Link to={`/datasets/${encodeURIComponent(benchmark.datasetId)}`}>{benchmark.datasetId}</Link>
            </dd>
          </div>
          <div>
            <dt>Scorers</dt>
            <dd>{benchmark.scorers.map((s) => `${s.name} (${s.type})`).join(', ')}</dd>
          </div>
          <div>
            <dt>Runner</dt>
            <dd>
              {benchmark.runner.concurrency} at once · {benchmark.runner.maxAttempts} {benchmark.runner.maxAttempts === 1 ? 'attempt' : 'attempts'} ·{' '}
              {formatDuration(benchmark.runner.timeoutMs)} timeout
            </dd>
          </div>
          {benchmark.description && (
            <div>
              <dt>Description</dt>
              <dd>{benchmark.description}</dd>
            </div>
          )}
        </dl>
      )}
      {runs && <RunsTable runs={runs} selected={runId} compare={compare} base={base} />}
      {compare.length === 2 && runs && (
        <RunComparison
          benchmarkId={id}
          baseRun={compare[0]}
          otherRun={compare[1]}
          runs={runs}
          onClose={() => navigate(runId ? `${base}?run=${encodeURIComponent(runId)}` : base)}
        />
      )}
      {run && benchmark && compare.length !== 2 && (
        <>
          <ScorerSummaries run={run} />
          <TaskTable benchmarkId={id} run={run} scorers={benchmark.scorers.map((s) => s.name)} reads={taskReads} />
        </>
      )}
    </section>
  );
}

function RunsTable({ runs, selected, compare, base }: { runs: Run[]; selected: string | null; compare: string[]; base: string }) {
  const [picked, setPicked] = useState<string[]>(compare);
  if (runs.length === 0) return <p className="empty">No run yet: start one to score every dataset item.</p>;
  const toggle = (id: string) => setPicked((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id].slice(-2)));
  // Older run first: the comparison reads as "from base to newer".
  const ordered = [...picked].sort((a, b) => runs.findIndex((r) => r.id === b) - runs.findIndex((r) => r.id === a));
  return (
    <div className="card">
      <div className="card-head">
        <h2>Runs</h2>
        <div className="inline-form">
          <span className="muted hint">Tick two runs to compare them.</span>
          <button type="button" className="secondary" disabled={picked.length !== 2} onClick={() => navigate(`${base}?compare=${ordered.map(encodeURIComponent).join(',')}`)}>
            Compare runs
          </button>
        </div>
      </div>
      <table className="data-table flat runs">
        <caption className="visually-hidden">Runs of the benchmark, newest first</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Compare</span>
            </th>
            <th scope="col">Run</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
            <th scope="col">Scores (mean)</th>
            <th scope="col" className="num">
              Cost
            </th>
            <th scope="col">Started</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id} className={r.id === selected && compare.length !== 2 ? 'selected' : undefined} data-run-id={r.id}>
              <td className="check">
                <input type="checkbox" checked={picked.includes(r.id)} onChange={() => toggle(r.id)} aria-label={`Compare run ${r.id}`} />
              </td>
              <td>
                <Link to={`${base}?run=${encodeURIComponent(r.id)}`}>
                  <code>{r.id}</code>
                </Link>
                {typeof r.experiment?.name === 'string' && <div className="muted">{r.experiment.name}</div>}
              </td>
              <td>
                <StatusBadge status={r.status} />
              </td>
              <td className="progress-cell">
                <ProgressBar counts={r.counts} label={`Progress of run ${r.id}`} />
              </td>
              <td>
                {scoreSummaries(r.scores).map(([name, s]) => (
                  <span key={name} className="tag">
                    {name} {formatScore(s.mean)}
                  </span>
                ))}
              </td>
              <td className="num">{formatCost(r.costUsd) || '—'}</td>
              <td>{formatTime(r.startedAt ?? r.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ScorerSummaries({ run }: { run: Run }) {
  const entries = scoreSummaries(run.scores);
  if (!entries.length) return null;
  return (
    <div className="score-cards" role="list" aria-label="Scorer summaries">
      {entries.map(([name, s]) => (
        <div key={name} className="card score-card" role="listitem">
          <h3>{name}</h3>
          <div className="score-figures">
            <div>
              <span className="figure">{formatScore(s.mean)}</span>
              <span className="muted">mean</span>
            </div>
            <div>
              <span className="figure">{s.passRate === null ? '—' : `${Math.round(s.passRate * 100)} %`}</span>
              <span className="muted">pass rate</span>
            </div>
          </div>
        </div>
      ))}
    </div>
  );
}

function TaskTable({ benchmarkId, run, scorers, reads }: { benchmarkId: string; run: Run; scorers: string[]; reads: number }) {
  const fetchPage = useCallback((cursor: string | null) => listTasks(benchmarkId, run.id, cursor, 50), [benchmarkId, run.id]);
  const list = usePagedList<Task>(fetchPage);
  const { reload } = list;
  // The table follows the run while it moves, and reads once more when it ended (the page says when).
  const readsAtMount = useRef(reads);
  useEffect(() => {
    if (reads !== readsAtMount.current) reload();
  }, [reads, reload]);
  const tasks = list.page?.data;
  return (
    <div className="card">
      <div className="card-head">
        <h2>
          Tasks of <code>{run.id}</code>
        </h2>
        <StatusBadge status={run.status} />
      </div>
      <ErrorNotice error={list.error} />
      {!tasks ? (
        <p className="muted pad">Loading tasks…</p>
      ) : (
        <table className="data-table flat tasks">
          <caption className="visually-hidden">Tasks of the run, in dataset order</caption>
          <thead>
            <tr>
              <th scope="col" className="num">
                Item
              </th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Attempts
              </th>
              <th scope="col">Output</th>
              {scorers.map((s) => (
                <th key={s} scope="col" className="num">
                  {s}
                </th>
              ))}
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col">Trace</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={t.id}>
                <td className="num">{t.itemIndex}</td>
                <td>
                  <StatusBadge status={t.status} />
                </td>
                <td className="num">{t.attempts}</td>
                <td className="output-cell">
                  <code title={preview(t.output, 2000)}>{t.error ? <span className="error-text">{t.error}</span> : preview(t.output, 120)}</code>
                </td>
                {scorers.map((name) => {
                  const score = t.scores.find((s) => s.scorer === name);
                  return (
                    <td key={name} className={`num${score?.passed === false ? ' error-text' : ''}`} title={score?.error ?? undefined}>
                      {score ? (score.error ? 'error' : formatScore(score.score)) : '—'}
                    </td>
                  );
                })}
                <td className="num">{formatDuration(t.durationMs)}</td>
                <td>
                  {t.traceId ? (
                    <Link to={`/traces/${encodeURIComponent(t.traceId)}`} label={`Trace of item ${t.itemIndex}`}>
                      trace
                    </Link>
                  ) : (
                    <span className="muted">—</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} label="Task pages" />
    </div>
  );
}

function preview(value: unknown, max: number): string {
  if (value === null || value === undefined) return '—';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
