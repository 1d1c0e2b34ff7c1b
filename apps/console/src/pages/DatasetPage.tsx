import { useCallback, useEffect, useState } from 'react';
import { getDataset, listDatasetItems } from '../api';
import type { Dataset } from '../api-types';
import { ErrorNotice } from '../components/ErrorNotice';
import { JsonView } from '../components/JsonView';
import { Link } from '../components/Link';
import { Pager } from '../components/Pager';
import { formatTime } from '../format';
import { usePagedList } from '../hooks/usePagedList';

const PAGE_SIZE = 25;

export function DatasetPage({ id }: { id: string }) {
  const [dataset, setDataset] = useState<Dataset | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    getDataset(id).then(
      (d) => live && setDataset(d),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [id]);
  const items = usePagedList(useCallback((cursor: string | null) => listDatasetItems(id, cursor, PAGE_SIZE), [id]));
  const rows = items.page?.data;

  return (
    <section className="page">
      <p className="back">
        <Link to="/datasets">← All datasets</Link>
      </p>
      <div className="page-head">
        <h1>{dataset?.name ?? 'Dataset'}</h1>
      </div>
      <ErrorNotice error={error} />
      {dataset && (
        <dl className="facts card summary">
          <div>
            <dt>Items</dt>
            <dd>{dataset.itemCount}</dd>
          </div>
          <div>
            <dt>Version</dt>
            <dd>v{dataset.version}</dd>
          </div>
          <div>
            <dt>Updated</dt>
            <dd>{formatTime(dataset.updatedAt)}</dd>
          </div>
          {dataset.description && (
            <div>
              <dt>Description</dt>
              <dd>{dataset.description}</dd>
            </div>
          )}
        </dl>
      )}
      <ErrorNotice error={items.error} />
      {rows &&
        (rows.length === 0 ? (
          <p className="empty">No item yet: add some with POST /api/v1/datasets/{'{id}'}/items.</p>
        ) : (
          <table className="data-table items">
            <caption className="visually-hidden">Items, oldest first</caption>
            <thead>
              <tr>
                <th scope="col" className="num">
                  #
                </th>
                <th scope="col">Input</th>
                <th scope="col">Expected</th>
                <th scope="col">Metadata</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((item) => (
                <tr key={item.id}>
                  <td className="num">{item.index}</td>
                  <td>
                    <JsonView value={item.input} label={`Input of item ${item.index}`} />
                  </td>
                  <td>
                    {item.expected === null || item.expected === undefined ? (
                      <span className="muted">—</span>
                    ) : (
                      <JsonView value={item.expected} label={`Expected of item ${item.index}`} />
                    )}
                  </td>
                  <td>
                    {Object.keys(item.metadata ?? {}).length ? <JsonView value={item.metadata} label={`Metadata of item ${item.index}`} /> : <span className="muted">—</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <Pager list={items} label="Item pages" />
    </section>
  );
}
