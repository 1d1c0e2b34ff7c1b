import { useCallback, useEffect, useMemo, useState } from 'react';
import { listPrompts } from '../api';
import { PROMPT_TYPES } from '../api-types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';
import { navigate } from '../router';

interface Filters {
  type: string;
  label: string;
  q: string;
  includeDeleted: boolean;
}

function filtersFrom(search: string): Filters {
  const params = new URLSearchParams(search);
  return { type: params.get('type') ?? '', label: params.get('label') ?? '', q: params.get('q') ?? '', includeDeleted: params.get('includeDeleted') === 'true' };
}

function searchOf(filters: Filters): string {
  const params = new URLSearchParams();
  if (filters.type) params.set('type', filters.type);
  if (filters.label.trim()) params.set('label', filters.label.trim());
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.includeDeleted) params.set('includeDeleted', 'true');
  const text = params.toString();
  return text ? `?${text}` : '';
}

export function PromptsPage({ search }: { search: string }) {
  const applied = useMemo(() => filtersFrom(search), [search]);
  const [draft, setDraft] = useState(applied);
  useEffect(() => setDraft(applied), [applied]);
  const list = usePagedList(useCallback((cursor: string | null) => listPrompts(applied, cursor, 50), [applied]));
  const rows = list.page?.data;
  const apply = (next: Filters) => navigate(`/prompts${searchOf(next)}`);

  return (
    <section className="page">
      <div className="page-head">
        <h1>Prompts</h1>
      </div>
      <form
        className="filters card"
        aria-label="Prompt filters"
        onSubmit={(e) => {
          e.preventDefault();
          apply(draft);
        }}
      >
        <label className="field compact">
          <span>Type</span>
          <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
            <option value="">Any</option>
            {PROMPT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="field compact">
          <span>Label</span>
          <input value={draft.label} onChange={(e) => setDraft({ ...draft, label: e.target.value })} placeholder="production" />
        </label>
        <label className="field compact">
          <span>Search</span>
          <input value={draft.q} onChange={(e) => setDraft({ ...draft, q: e.target.value })} />
        </label>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={draft.includeDeleted}
            onChange={(e) => {
              // The toggle applies at once (with the other filters as typed).
              const next = { ...draft, includeDeleted: e.target.checked };
              setDraft(next);
              apply(next);
            }}
          />
          Include deleted
        </label>
        <div className="filter-actions">
          <button type="submit" className="primary">
            Apply filters
          </button>
          <button type="button" className="ghost" onClick={() => navigate('/prompts')} disabled={!search}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNotice error={list.error} />
      {!rows ? (
        !list.error && <p className="muted">Loading prompts…</p>
      ) : rows.length === 0 ? (
        <p className="empty">{search ? 'No prompt matches these filters.' : 'No prompt yet: create one with POST /api/v1/prompts.'}</p>
      ) : (
        <table className="data-table prompts">
          <caption className="visually-hidden">Prompts, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Identifier</th>
              <th scope="col">Type</th>
              <th scope="col" className="num">
                Version
              </th>
              <th scope="col">Labels</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => {
              const to = `/prompts/${encodeURIComponent(p.id)}${p.deletedAt ? '?includeDeleted=true' : ''}`;
              return (
                <tr key={p.id} className={p.deletedAt ? 'deleted' : undefined}>
                  <td className="strong">
                    <Link to={to}>{p.name}</Link> {p.deletedAt && <span className="badge status-error">deleted</span>}
                  </td>
                  <td>
                    <code>{p.identifier}</code>
                  </td>
                  <td>{p.type}</td>
                  <td className="num">v{p.version}</td>
                  <td>
                    {p.labels.map((l) => (
                      <span key={l} className="tag">
                        {l}
                      </span>
                    ))}
                  </td>
                  <td>{formatTime(p.deletedAt ?? p.updatedAt)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <Pager list={list} />
    </section>
  );
}
