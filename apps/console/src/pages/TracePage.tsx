import { useEffect, useMemo, useState } from 'react';
import { ApiError, getTrace } from '../api';
import type { Trace } from '../api-types';
import { JsonView } from '../components/JsonView';
import { MediaView } from '../components/MediaView';
import { SpanPanel } from '../components/SpanPanel';
import { StatusBadge } from '../components/StatusBadge';
import { KindLegend, Waterfall } from '../components/Waterfall';
import { formatCost, formatDuration, formatTime, formatUsage } from '../format';
import { mediaOf } from '../media';
import { navigate, onLinkClick } from '../router';
import { layoutTimeline } from '../timeline';
import { findingsForSpan } from '../video-marks';

/** While a trace runs, it is read again this often so new spans appear. */
const RUNNING_POLL_MS = 5000;

export function TracePage({ id, spanId }: { id: string; spanId: string | null }) {
  const [trace, setTrace] = useState<Trace | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      getTrace(id, abort.signal)
        .then((t) => {
          setTrace(t);
          if (t.status === 'running') timer = setTimeout(load, RUNNING_POLL_MS);
        })
        .catch((e: unknown) => {
          if (abort.signal.aborted) return;
          setError(e instanceof ApiError && e.status === 404 ? 'No trace with this id in this project.' : e instanceof Error ? e.message : String(e));
        });
    void load();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [id]);

  const layout = useMemo(() => (trace ? layoutTimeline(trace.spans, trace) : null), [trace]);
  const selected = layout && spanId ? (layout.rows.find((r) => r.span.id === spanId) ?? null) : null;
  const traceMedia = useMemo(() => (trace ? mediaOf({ output: trace.output }) : []), [trace]);
  const findings = useMemo(() => (trace && selected ? findingsForSpan(selected.span, trace.spans) : []), [trace, selected]);
  const base = `/traces/${encodeURIComponent(id)}`;
  const select = (span: string | null) => navigate(span ? `${base}?span=${encodeURIComponent(span)}` : base, { replace: true });

  if (error)
    return (
      <section className="page">
        <Back />
        <h1>Trace</h1>
        <p className="notice error" role="alert">
          {error}
        </p>
      </section>
    );
  if (!trace || !layout)
    return (
      <section className="page">
        <Back />
        <p className="muted" role="status">
          Loading trace…
        </p>
      </section>
    );

  return (
    <section className="page trace-page">
      <Back />
      <div className="page-head">
        <h1>
          {trace.name || trace.id} <StatusBadge status={trace.status} />
        </h1>
      </div>
      <dl className="facts summary card">
        <div>
          <dt>Started</dt>
          <dd>{formatTime(trace.startTime)}</dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{formatDuration(trace.durationMs ?? layout.totalMs)}</dd>
        </div>
        <div>
          <dt>Spans</dt>
          <dd>{trace.spanCount}</dd>
        </div>
        <div>
          <dt>Errors</dt>
          <dd className={trace.errorCount ? 'error-text' : undefined}>{trace.errorCount}</dd>
        </div>
        <div>
          <dt>Usage</dt>
          <dd>{formatUsage(trace.usage) || '—'}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd>{formatCost(trace.costUsd) || '—'}</dd>
        </div>
        {trace.userId && (
          <div>
            <dt>User</dt>
            <dd>{trace.userId}</dd>
          </div>
        )}
        {trace.sessionId && (
          <div>
            <dt>Session</dt>
            <dd>{trace.sessionId}</dd>
          </div>
        )}
        <div>
          <dt>Trace id</dt>
          <dd>
            <code>{trace.id}</code>
          </dd>
        </div>
        {trace.tags.length > 0 && (
          <div>
            <dt>Tags</dt>
            <dd>
              {trace.tags.map((t) => (
                <span key={t} className="tag">
                  {t}
                </span>
              ))}
            </dd>
          </div>
        )}
      </dl>
      {traceMedia.length > 0 && (
        <section className="card trace-media" aria-label="Trace output media">
          <h2>Output</h2>
          <MediaView assets={traceMedia} compact />
        </section>
      )}
      <div className={`trace-body${selected ? ' with-panel' : ''}${selected && mediaOf(selected.span).length ? ' with-media' : ''}`}>
        <section className="card waterfall-card" aria-labelledby="waterfall-title">
          <div className="card-head">
            <h2 id="waterfall-title">Timeline</h2>
            <KindLegend />
          </div>
          {layout.rows.length ? (
            <Waterfall layout={layout} selectedId={selected?.span.id ?? null} onSelect={(s) => select(s)} />
          ) : (
            <p className="empty">This trace has no spans yet.</p>
          )}
        </section>
        {selected && <SpanPanel key={selected.span.id} row={selected} findings={findings} onClose={() => select(null)} />}
      </div>
      <details className="card trace-io">
        <summary>Trace input, output and metadata</summary>
        <div className="io-grid">
          <div>
            <h3>Input</h3>
            <JsonView value={trace.input} label="Trace input" />
          </div>
          <div>
            <h3>Output</h3>
            <JsonView value={trace.output} label="Trace output" />
          </div>
          <div>
            <h3>Metadata</h3>
            <JsonView value={trace.metadata} label="Trace metadata" />
          </div>
        </div>
      </details>
    </section>
  );
}

function Back() {
  return (
    <p className="back">
      <a href="/traces" onClick={(e) => onLinkClick(e, '/traces')}>
        ← All traces
      </a>
    </p>
  );
}
