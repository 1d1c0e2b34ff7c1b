import { useCallback } from 'react';
import { listBenchmarks } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { ProgressBar } from '../components/ProgressBar';
import { StatusBadge } from '../components/StatusBadge';
import { formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';

export function BenchmarksPage() {
  const list = usePagedList(useCallback((cursor: string | null) => listBenchmarks(cursor, 50), []));
  const rows = list.page?.data;
  return (
    <section className="page">
      <div className="page-head">
        <h1>Benchmarks</h1>
      </div>
      <ErrorNotice error={list.error} />
      {!rows ? (
        !list.error && <p className="muted">Loading benchmarks…</p>
      ) : rows.length === 0 ? (
        <p className="empty">No benchmark yet: create one with POST /api/v1/benchmarks on a dataset.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Benchmarks, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Target</th>
              <th scope="col">Scorers</th>
              <th scope="col">Last run</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
              <tr key={b.id}>
                <td className="strong">
                  <Link to={`/benchmarks/${encodeURIComponent(b.id)}`}>{b.name}</Link>
                </td>
                <td>
                  <StatusBadge status={b.status} />
                </td>
                <td>
                  <code>{b.target.type}</code>
                </td>
                <td>
                  {b.scorers.map((s) => (
                    <span key={s.name} className="tag">
                      {s.name}
                    </span>
                  ))}
                </td>
                <td className="progress-cell">
                  {b.lastRun ? <ProgressBar counts={b.lastRun.counts} label={`Last run of ${b.name}`} /> : <span className="muted">never run</span>}
                </td>
                <td>{formatTime(b.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} />
    </section>
  );
}
