import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { formatCost, formatDuration, formatUsage } from '../format';
import { TimelineLayout, axisTicks, visibleWindow } from '../timeline';

export const ROW_HEIGHT = 30;
// Deep chains would push names out of their column: indentation stops growing past this depth.
const MAX_INDENT_DEPTH = 16;
const INDENT_PX = 14;
/** Room a tick's label needs ("500 ms", "1.00 s") with space either side: fewer ticks on a narrow track. */
const TICK_LABEL_PX = 80;
export const KINDS = ['span', 'generation', 'llm', 'tool', 'retrieval', 'embedding', 'agent', 'scorer'];

interface Props {
  layout: TimelineLayout;
  selectedId: string | null;
  onSelect(spanId: string): void;
}

/**
 * The spans as a waterfall, one row per span. Only the rows in view (and a few either
 * side) are in the DOM, so a trace of thousands of spans renders as fast as one of fifty.
 */
export function Waterfall({ layout, selectedId, onSelect }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const track = useRef<HTMLDivElement>(null);
  const [trackWidth, setTrackWidth] = useState(400);
  const { rows, totalMs } = layout;
  const { start, end } = visibleWindow(rows.length, ROW_HEIGHT, scrollTop, viewport);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element) return;
    setViewport(element.clientHeight || 600);
    const observer = new ResizeObserver(() => setViewport(element.clientHeight || 600));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const element = track.current;
    if (!element) return;
    const measure = () => setTrackWidth(element.clientWidth || 400);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // A span chosen by URL (a shared link) is scrolled into view once.
  useEffect(() => {
    const element = scroller.current;
    if (!element || !selectedId) return;
    const index = rows.findIndex((r) => r.span.id === selectedId);
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < element.scrollTop || top + ROW_HEIGHT > element.scrollTop + element.clientHeight) element.scrollTop = Math.max(0, top - element.clientHeight / 3);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rows]);

  const ticks = axisTicks(totalMs, Math.max(1, Math.min(5, Math.floor(trackWidth / TICK_LABEL_PX))));
  return (
    <div className="waterfall" role="table" aria-label="Waterfall" aria-rowcount={rows.length + 1} data-span-count={rows.length}>
      <div role="rowgroup" className="wf-head-group">
        <div role="row" aria-rowindex={1} className="wf-row wf-head">
          <div role="columnheader" className="wf-name">
            Span
          </div>
          <div role="columnheader" className="wf-track" ref={track}>
            <span className="visually-hidden">Timeline</span>
            {ticks.map((t) => (
              <span key={t.ms} className="wf-tick" style={{ left: `${t.pct}%` }} aria-hidden="true">
                {t.ms === 0 ? '0' : formatDuration(t.ms)}
              </span>
            ))}
          </div>
          <div role="columnheader" className="wf-duration">
            Duration
          </div>
          <div role="columnheader" className="wf-usage">
            Usage · cost
          </div>
        </div>
      </div>
      <div role="rowgroup" className="wf-body" ref={scroller} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)} tabIndex={0} aria-label="Spans">
        <div role="presentation" className="wf-canvas" style={{ height: rows.length * ROW_HEIGHT }}>
          {/* One set of grid lines behind all rows, at the axis ticks (not one per row). */}
          <div className="wf-row wf-grid" aria-hidden="true">
            <div />
            <div className="wf-track">
              {ticks.map((t) => (
                <span key={t.ms} className="wf-gridline" style={{ left: `${t.pct}%` }} />
              ))}
            </div>
          </div>
          {rows.slice(start, end).map((row, i) => {
            const index = start + i;
            const { span } = row;
            const selected = span.id === selectedId;
            return (
              <div
                key={span.id}
                role="row"
                aria-rowindex={index + 2}
                className={`wf-row${selected ? ' selected' : ''}${row.error ? ' has-error' : ''}`}
                style={{ transform: `translateY(${index * ROW_HEIGHT}px)` }}
                data-span-id={span.id}
              >
                <div role="cell" className="wf-name" style={{ paddingLeft: 8 + Math.min(row.depth, MAX_INDENT_DEPTH) * INDENT_PX }}>
                  <span className={`kind-dot kind-${kindClass(span.kind)}`} aria-hidden="true" />
                  <button type="button" className="wf-select" onClick={() => onSelect(span.id)} aria-current={selected ? 'true' : undefined} title={`${span.name} (${span.kind})`}>
                    {span.name}
                  </button>
                  {row.error && (
                    <span className="error-mark" title={span.statusMessage ?? 'error'}>
                      <span aria-hidden="true">!</span>
                      <span className="visually-hidden">error</span>
                    </span>
                  )}
                </div>
                <div role="cell" className="wf-track">
                  <span
                    className={`wf-bar kind-${kindClass(span.kind)}${row.error ? ' error' : ''}${row.running ? ' running' : ''}`}
                    style={{ left: `${row.offsetPct}%`, width: `${row.widthPct}%` }}
                    title={`${span.name}: starts at +${formatDuration(row.startMs)}, lasts ${formatDuration(row.durationMs)}`}
                  />
                </div>
                <div role="cell" className="wf-duration">
                  {row.running ? 'running' : formatDuration(row.durationMs)}
                </div>
                <div role="cell" className="wf-usage" title={formatUsage(span.usage)}>
                  {[formatUsage(span.usage), formatCost(span.costUsd)].filter(Boolean).join(' · ')}
                </div>
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}

export function kindClass(kind: string): string {
  return KINDS.includes(kind) ? kind : 'span';
}

export function KindLegend() {
  return (
    <ul className="legend" aria-label="Span kinds">
      {KINDS.map((k) => (
        <li key={k}>
          <span className={`kind-dot kind-${k}`} aria-hidden="true" />
          {k}
        </li>
      ))}
      <li>
        <span className="kind-dot legend-error" aria-hidden="true" />
        error
      </li>
    </ul>
  );
}
