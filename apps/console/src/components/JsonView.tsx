import { useState } from 'react';

// Big outputs must not freeze the page: a node shows its first entries and a button for the rest.
const SHOWN = 100;
const OPEN_DEPTH = 1;

/** A JSON value as a collapsible tree (objects and arrays are <details>, open to OPEN_DEPTH). */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  if (value === undefined) return <p className="muted">—</p>;
  return (
    <div className="json" aria-label={label} role="group">
      <Node name={null} value={value} depth={0} />
    </div>
  );
}

function Node({ name, value, depth }: { name: string | null; value: unknown; depth: number }) {
  const [all, setAll] = useState(false);
  const key = name === null ? null : <span className="json-key">{name}: </span>;
  if (value === null || typeof value !== 'object') {
    return (
      <div className="json-line">
        {key}
        <Scalar value={value} />
      </div>
    );
  }
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const brackets = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) {
    return (
      <div className="json-line">
        {key}
        <span className="json-punct">{brackets.join('')}</span>
      </div>
    );
  }
  const shown = all ? entries : entries.slice(0, SHOWN);
  return (
    <details open={depth < OPEN_DEPTH} className="json-node">
      <summary>
        {key}
        <span className="json-punct">{brackets[0]}</span>
        <span className="json-count">
          {entries.length} {Array.isArray(value) ? (entries.length === 1 ? 'item' : 'items') : entries.length === 1 ? 'key' : 'keys'}
        </span>
        <span className="json-punct">{brackets[1]}</span>
      </summary>
      <div className="json-children">
        {shown.map(([k, v]) => (
          <Node key={k} name={k} value={v} depth={depth + 1} />
        ))}
        {shown.length < entries.length && (
          <button type="button" className="link" onClick={() => setAll(true)}>
            Show {entries.length - shown.length} more
          </button>
        )}
      </div>
    </details>
  );
}

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') return <span className="json-string">"{value}"</span>;
  if (typeof value === 'number') return <span className="json-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="json-bool">{String(value)}</span>;
  return <span className="json-null">null</span>;
}
