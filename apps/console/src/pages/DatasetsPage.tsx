import { useCallback } from 'react';
import { listDatasets } from '../api';
import { ErrorNotice } from '../components/ErrorNotice';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';

export function DatasetsPage() {
  const list = usePagedList(useCallback((cursor: string | null) => listDatasets(cursor, 50), []));
  const rows = list.page?.data;
  return (
    <section className="page">
      <div className="page-head">
        <h1>Datasets</h1>
      </div>
      <ErrorNotice error={list.error} />
      {!rows ? (
        !list.error && <p className="muted">Loading datasets…</p>
      ) : rows.length === 0 ? (
        <p className="empty">No dataset yet: create one with POST /api/v1/datasets.</p>
      ) : (
        <table className="data-table">
          <caption className="visually-hidden">Datasets, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Description</th>
              <th scope="col" className="num">
                Items
              </th>
              <th scope="col" className="num">
                Version
              </th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.id}>
                <td className="strong">
                  <Link to={`/datasets/${encodeURIComponent(d.id)}`}>{d.name}</Link>
                </td>
                <td className="muted">{d.description || '—'}</td>
                <td className="num">{d.itemCount}</td>
                <td className="num">v{d.version}</td>
                <td>{formatTime(d.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager list={list} />
    </section>
  );
}
