import { Counter } from 'prom-client';
import { oneOf } from './labels';
import { registerOptionalGauge } from './optional-gauge';
import { metricsRegistry } from './registry';

/**
 * Why the gateway did not accept a trace: `invalid` (it failed validation), `unknown_parent`
 * (a span's parentId is neither in the payload nor stored), `unavailable` (the stream
 * refused or failed the publish: backpressure or an outage; the client retries).
 */
export const TRACE_REJECT_REASONS = ['invalid', 'unknown_parent', 'unavailable'] as const;
export type TraceRejectReason = (typeof TRACE_REJECT_REASONS)[number];

const tracesAccepted = new Counter({
  name: 'cinetrace_ingest_traces_accepted_total',
  help: 'Traces the gateway accepted onto the trace stream',
  registers: [metricsRegistry],
});
const spansAccepted = new Counter({
  name: 'cinetrace_ingest_spans_accepted_total',
  help: 'Spans of the traces the gateway accepted onto the trace stream',
  registers: [metricsRegistry],
});
const tracesRejected = new Counter({
  name: 'cinetrace_ingest_traces_rejected_total',
  help: 'Traces the gateway did not accept, by reason',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
const spansRejected = new Counter({
  name: 'cinetrace_ingest_spans_rejected_total',
  help: 'Spans of the traces the gateway did not accept, by reason',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});

/**
 * Called by the ingesting app (the gateway) at start: its series exist at 0 from then on,
 * so rate() sees the first rejection rather than a series appearing. Other apps leave them out.
 */
export function startIngestSeries(): void {
  tracesAccepted.inc(0);
  spansAccepted.inc(0);
  for (const reason of TRACE_REJECT_REASONS) {
    tracesRejected.inc({ reason }, 0);
    spansRejected.inc({ reason }, 0);
  }
}

export function countTracesAccepted(traces: number, spans: number): void {
  tracesAccepted.inc(traces);
  spansAccepted.inc(spans);
}

export function countTracesRejected(reason: TraceRejectReason, traces: number, spans: number): void {
  const label = { reason: oneOf(TRACE_REJECT_REASONS, reason) };
  tracesRejected.inc(label, traces);
  spansRejected.inc(label, spans);
}

/** How far trace-ingest is behind on the trace stream, as this process can tell; undefined: it cannot tell. */
export interface IngestLagReading {
  records(): number | undefined;
  bytes(): number | undefined;
}

let lagReading: IngestLagReading | undefined;

/** Names where the lag is read from (the gateway's lag gate, or the in-process stream's queue). */
export function reportIngestLagFrom(reading: IngestLagReading): void {
  lagReading = reading;
}

// Read at scrape time: no timer of its own, and a process that cannot tell exports no sample.
registerOptionalGauge('cinetrace_ingest_lag_records', 'Trace records published to the trace stream and not yet stored by trace-ingest', () => lagReading?.records());
registerOptionalGauge('cinetrace_ingest_lag_bytes', 'Bytes of trace records published to the trace stream and not yet stored by trace-ingest', () => lagReading?.bytes());
