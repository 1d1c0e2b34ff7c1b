import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { listTraces } from '../api';
import type { TraceSummary } from '../api-types';
import { StatusBadge } from '../components/StatusBadge';
import { formatCost, formatDuration, formatTime } from '../format';
import { navigate, onLinkClick } from '../router';
import { TraceFilters, filtersFromSearch, filtersToQuery, filtersToSearch } from '../trace-filters';

const PAGE_SIZE = 50;
/** How often the first page is fetched again, so new traces appear without a reload. */
export const POLL_MS = 4000;

export function TracesPage({ search }: { search: string }) {
  const applied = useMemo(() => filtersFromSearch(search), [search]);
  const [draft, setDraft] = useState<TraceFilters>(applied);
  // Keyset paging: the cursors of the pages before this one (null: the first page).
  const [cursors, setCursors] = useState<Array<string | null>>([null]);
  const [page, setPage] = useState<{ data: TraceSummary[]; nextCursor: string | null } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [updatedAt, setUpdatedAt] = useState<Date | null>(null);
  const cursor = cursors[cursors.length - 1];
  const query = useMemo(() => filtersToQuery(applied), [applied]);
  const request = useRef(0);

  useEffect(() => {
    setDraft(applied);
    setCursors([null]);
  }, [applied]);

  const load = useCallback(async () => {
    const id = ++request.current;
    try {
      const next = await listTraces(query, cursor, PAGE_SIZE);
      if (id !== request.current) return;
      setPage(next);
      setError(null);
      setUpdatedAt(new Date());
    } catch (e) {
      if (id === request.current) setError(e instanceof Error ? e.message : String(e));
    }
  }, [query, cursor]);

  useEffect(() => {
    void load();
    // Only the first page is live: later pages stay put while the reader pages through them.
    if (cursor !== null) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [load, cursor]);

  const set = (key: keyof TraceFilters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => setDraft({ ...draft, [key]: e.target.value });

  return (
    <section className="page">
      <div className="page-head">
        <h1>Traces</h1>
        <p className="live muted" role="status">
          {cursor === null ? <span className="live-dot" aria-hidden="true" /> : null}
          {cursor === null ? `Live: updated ${updatedAt ? updatedAt.toLocaleTimeString() : '…'}` : 'Paused while paging'}
        </p>
      </div>
      <form
        className="filters card"
        aria-label="Trace filters"
        onSubmit={(e) => {
          e.preventDefault();
          navigate(`/traces${filtersToSearch(draft)}`);
        }}
      >
        <label className="field compact">
          <span>Status</span>
          <select value={draft.status} onChange={set('status')}>
            <option value="">Any</option>
            <option value="running">running</option>
            <option value="ok">ok</option>
            <option value="error">error</option>
          </select>
        </label>
        <label className="field compact">
          <span>Name</span>
          <input value={draft.name} onChange={set('name')} />
        </label>
        <label className="field compact">
          <span>Tags</span>
          <input value={draft.tags} onChange={set('tags')} placeholder="prod, video" />
        </label>
        <label className="field compact">
          <span>User</span>
          <input value={draft.userId} onChange={set('userId')} />
        </label>
        <label className="field compact">
          <span>Session</span>
          <input value={draft.sessionId} onChange={set('sessionId')} />
        </label>
        <label className="field compact">
          <span>From</span>
          <input type="datetime-local" step="1" value={draft.from} onChange={set('from')} />
        </label>
        <label className="field compact">
          <span>To</span>
          <input type="datetime-local" step="1" value={draft.to} onChange={set('to')} />
        </label>
        <label className="field compact wide">
          <span>Metadata</span>
          <input value={draft.metadata} onChange={set('metadata')} placeholder="model=veo-3, seed=42" />
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" className="ghost" onClick={() => navigate('/traces')} disabled={!filtersToSearch(draft) && !search}>
            Clear
          </button>
        </div>
      </form>
      {error && (
        <p className="notice error" role="alert">
          {error}
        </p>
      )}
      {page === null ? (
        <p className="muted">Loading traces…</p>
      ) : page.data.length === 0 ? (
        <p className="empty">{filtersToSearch(applied) ? 'No trace matches these filters.' : 'No trace yet: send one to POST /api/v1/traces or over OTLP.'}</p>
      ) : (
        <table className="data-table traces">
          <caption className="visually-hidden">Traces, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col" className="num">
                Duration
              </th>
              <th scope="col" className="num">
                Spans
              </th>
              <th scope="col" className="num">
                Errors
              </th>
              <th scope="col" className="num">
                Cost
              </th>
              <th scope="col">Tags</th>
              <th scope="col">User</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((t) => (
              <tr key={t.id}>
                <td className="strong">
                  <a href={`/traces/${encodeURIComponent(t.id)}`} onClick={(e) => onLinkClick(e, `/traces/${encodeURIComponent(t.id)}`)}>
                    {t.name || t.id}
                  </a>
                </td>
                <td>
                  <StatusBadge status={t.status} />
                </td>
                <td>{formatTime(t.startTime)}</td>
                <td className="num">{formatDuration(t.durationMs)}</td>
                <td className="num">{t.spanCount}</td>
                <td className={`num${t.errorCount ? ' error-text' : ''}`}>{t.errorCount}</td>
                <td className="num">{formatCost(t.costUsd) || '—'}</td>
                <td>
                  {t.tags.map((tag) => (
                    <span key={tag} className="tag">
                      {tag}
                    </span>
                  ))}
                </td>
                <td className="muted">{t.userId ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages">
        <button type="button" className="secondary" disabled={cursors.length <= 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous
        </button>
        <span className="muted">Page {cursors.length}</span>
        <button type="button" className="secondary" disabled={!page?.nextCursor} onClick={() => page?.nextCursor && setCursors([...cursors, page.nextCursor])}>
          Next
        </button>
      </nav>
    </section>
  );
}
