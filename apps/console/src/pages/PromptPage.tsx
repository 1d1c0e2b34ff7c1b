import { useCallback, useEffect, useMemo, useState } from 'react';
import { everyItem, getPrompt, listPromptActivity, listPromptVersions } from '../api';
import type { Prompt, PromptActivity, PromptVersion } from '../api-types';
import { ErrorNotice } from '../components/ErrorNotice';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { VersionDiff } from '../components/VersionDiff';
import { formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';
import { navigate } from '../router';

export function PromptPage({ id, search }: { id: string; search: string }) {
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const includeDeleted = params.get('includeDeleted') === 'true';
  const [prompt, setPrompt] = useState<Prompt | null>(null);
  const [versions, setVersions] = useState<PromptVersion[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let live = true;
    Promise.all([getPrompt(id, includeDeleted), everyItem((cursor) => listPromptVersions(id, cursor, 200), 2000)]).then(
      ([p, v]) => {
        if (!live) return;
        setPrompt(p);
        setVersions(v);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [id, includeDeleted]);

  // Newest first from the API; the diff defaults to the latest against the one before it.
  const latest = versions?.[0]?.version ?? null;
  const from = Number(params.get('from')) || (latest && latest > 1 ? latest - 1 : latest);
  const to = Number(params.get('to')) || latest;
  const choose = (which: 'from' | 'to', version: number) => {
    const next = new URLSearchParams(params);
    next.set(which, String(version));
    navigate(`/prompts/${encodeURIComponent(id)}?${next}`, { replace: true });
  };
  const before = versions?.find((v) => v.version === from);
  const after = versions?.find((v) => v.version === to);

  return (
    <section className="page">
      <p className="back">
        <Link to="/prompts">← All prompts</Link>
      </p>
      <div className="page-head">
        <h1>
          {prompt?.name ?? 'Prompt'} {prompt?.deletedAt && <span className="badge status-error">deleted {formatTime(prompt.deletedAt)}</span>}
        </h1>
      </div>
      <ErrorNotice error={error} />
      {prompt && (
        <dl className="facts card summary">
          <div>
            <dt>Identifier</dt>
            <dd>
              <code>{prompt.identifier}</code>
            </dd>
          </div>
          <div>
            <dt>Type</dt>
            <dd>{prompt.type}</dd>
          </div>
          <div>
            <dt>Latest version</dt>
            <dd>v{prompt.version}</dd>
          </div>
          <div>
            <dt>Labels</dt>
            <dd>
              {prompt.labels.length
                ? prompt.labels.map((l) => (
                    <span key={l} className="tag">
                      {l}
                    </span>
                  ))
                : '—'}
            </dd>
          </div>
          <div>
            <dt>Variables</dt>
            <dd>
              {prompt.variables.length
                ? prompt.variables.map((v) => (
                    <code key={v} className="variable">
                      {`{{${v}}}`}
                    </code>
                  ))
                : '—'}
            </dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatTime(prompt.updatedAt)}</dd>
          </div>
        </dl>
      )}
      {versions && versions.length > 0 && (
        <section className="card" aria-label="Version diff">
          <div className="card-head">
            <h2>Compare versions</h2>
            <div className="inline-form">
              <VersionSelect label="From" versions={versions} value={from} onChange={(version) => choose('from', version)} />
              <VersionSelect label="To" versions={versions} value={to} onChange={(version) => choose('to', version)} />
            </div>
          </div>
          {before && after && <VersionDiff before={before} after={after} />}
        </section>
      )}
      {versions && <VersionsTable versions={versions} onPick={(v) => choose('to', v)} />}
      <ActivityLog id={id} />
    </section>
  );
}

function VersionsTable({ versions, onPick }: { versions: PromptVersion[]; onPick(version: number): void }) {
  return (
    <div className="card">
      <div className="card-head">
        <h2>Versions</h2>
      </div>
      <table className="data-table flat">
        <caption className="visually-hidden">Versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Name</th>
            <th scope="col">Labels</th>
            <th scope="col">Variables</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>
                <button type="button" className="link" onClick={() => onPick(v.version)} aria-label={`v${v.version}: show it in the diff`}>
                  v{v.version}
                </button>
              </td>
              <td>{v.name}</td>
              <td>
                {v.labels.map((l) => (
                  <span key={l} className="tag">
                    {l}
                  </span>
                ))}
              </td>
              <td>{v.variables.join(', ') || '—'}</td>
              <td>{formatTime(v.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ActivityLog({ id }: { id: string }) {
  const list = usePagedList<PromptActivity>(useCallback((cursor: string | null) => listPromptActivity(id, cursor, 20), [id]));
  const rows = list.page?.data;
  return (
    <div className="card">
      <div className="card-head">
        <h2>Activity</h2>
      </div>
      <ErrorNotice error={list.error} />
      {rows && (
        <table className="data-table flat activity">
          <caption className="visually-hidden">Who changed what, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Action</th>
              <th scope="col">By</th>
              <th scope="col">Version</th>
              <th scope="col">Changed fields</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((a) => (
              <tr key={a.id}>
                <td>{formatTime(a.at)}</td>
                <td>
                  <span className={`badge action-${a.action}`}>{a.action}</span>
                </td>
                <td>
                  <code>{a.actor.id}</code>
                </td>
                <td>v{a.version}</td>
                <td className="changes">
                  {Object.keys(a.changes ?? {}).length
                    ? Object.entries(a.changes).map(([field, change]) => (
                        <div key={field}>
                          <strong>{field}</strong>: <span className="muted">{short(change, 'from')}</span> → {short(change, 'to')}
                        </div>
                      ))
                    : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} label="Activity pages" />
    </div>
  );
}

function short(change: unknown, side: 'from' | 'to'): string {
  const value = change && typeof change === 'object' ? (change as Record<string, unknown>)[side] : undefined;
  if (value === undefined || value === null) return '∅';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** One side of the comparison: a version of the prompt, chosen by its number. */
function VersionSelect(props: { label: string; versions: PromptVersion[]; value: number | null | undefined; onChange(version: number): void }) {
  return (
    <label className="field compact inline">
      <span>{props.label}</span>
      <select value={props.value ?? ''} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.versions.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
          </option>
        ))}
      </select>
    </label>
  );
}
