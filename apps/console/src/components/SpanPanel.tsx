import type { Span } from '../api-types';
import { formatCost, formatDuration, formatTime, formatUsage } from '../format';
import { mediaOf } from '../media';
import type { TimelineRow } from '../timeline';
import type { Finding } from '../video-marks';
import { JsonView } from './JsonView';
import { MediaView } from './MediaView';
import { StatusBadge } from './StatusBadge';
import { kindClass } from './Waterfall';

/**
 * Everything about one span: its facts, its media (played in place; a stored one with its
 * probe, storyboard, annotations and the `findings` of the video_qa scorers that read it),
 * its data as JSON, its events.
 */
export function SpanPanel({ row, findings = [], onClose }: { row: TimelineRow; findings?: Finding[]; onClose(): void }) {
  const { span } = row;
  const media = mediaOf(span);
  return (
    <aside className="span-panel card" aria-label={`Span ${span.name}`}>
      <div className="panel-head">
        <h2>
          <span className={`kind-dot kind-${kindClass(span.kind)}`} aria-hidden="true" /> {span.name}
        </h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close span details">
          ✕
        </button>
      </div>
      <dl className="facts">
        <div>
          <dt>Kind</dt>
          <dd>{span.kind}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            <StatusBadge status={span.status} />
          </dd>
        </div>
        <div>
          <dt>Duration</dt>
          <dd>{row.running ? 'running' : formatDuration(row.durationMs)}</dd>
        </div>
        <div>
          <dt>Starts at</dt>
          <dd>+{formatDuration(row.startMs)}</dd>
        </div>
        {span.model && (
          <div>
            <dt>Model</dt>
            <dd>
              <code>{span.model}</code>
            </dd>
          </div>
        )}
        {span.usage && Object.keys(span.usage).length > 0 && (
          <div>
            <dt>Usage</dt>
            <dd>{formatUsage(span.usage)}</dd>
          </div>
        )}
        {span.costUsd != null && (
          <div>
            <dt>Cost</dt>
            <dd>
              {formatCost(span.costUsd)}
              {span.costSource === 'computed' && <span className="muted"> (from the project's model prices)</span>}
            </dd>
          </div>
        )}
        <div>
          <dt>Span id</dt>
          <dd>
            <code>{span.id}</code>
          </dd>
        </div>
      </dl>
      {span.statusMessage && (
        <p className="notice error">
          <strong>Error:</strong> {span.statusMessage}
        </p>
      )}
      {media.length > 0 && (
        <Section title="Media">
          <MediaView assets={media} findings={findings} />
        </Section>
      )}
      <Section title="Input">
        <JsonView value={span.input} label="Input" />
      </Section>
      <Section title="Output">
        <JsonView value={span.output} label="Output" />
      </Section>
      <Section title="Attributes">
        <JsonView value={span.attributes ?? undefined} label="Attributes" />
      </Section>
      <Section title={`Events (${span.events?.length ?? 0})`}>
        {span.events?.length ? (
          <ol className="events">
            {span.events.map((event, i) => (
              <li key={i}>
                <span className="strong">{event.name}</span> <span className="muted">{formatTime(event.time)}</span>
                {event.attributes && Object.keys(event.attributes).length > 0 && <JsonView value={event.attributes} label={`Attributes of event ${event.name}`} />}
              </li>
            ))}
          </ol>
        ) : (
          <p className="muted">No events.</p>
        )}
      </Section>
    </aside>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="panel-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}
