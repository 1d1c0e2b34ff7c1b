import { BusClient, StreamPublisher } from '@cinetrace/bus';
import {
  FieldError,
  IngestReceiptsReply,
  IngestReceiptsRequest,
  Patterns,
  ProjectContext,
  SpanParentsRequest,
  TraceAcceptedView,
  TraceIngestMessage,
  TraceInput,
  Topics,
} from '@cinetrace/contracts';
import { countTracesAccepted, countTracesRejected, startIngestSeries, type TraceRejectReason } from '@cinetrace/metrics';
import { newId } from '@cinetrace/ids';
import { SpanParentRules, checkSpanParents, foreignParentIds, leaveOutOtlpPayloads, validateTrace } from '@cinetrace/traces';
import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';

export type CheckedTrace = { ok: true; trace: TraceInput } | { ok: false; errors: FieldError[] };

/** An accepted trace on its way: the message id that its receipt will carry. */
export interface Accepted {
  ingestId: string;
  trace: TraceInput;
}

/**
 * The gateway's half of ingestion: validates traces (asking trace-ingest only when a
 * parentId points outside the payload), publishes them to the trace stream, answering
 * only once the stream holds them durably, and waits for storage on `Prefer: wait`.
 */
@Injectable()
export class TraceIngestor {
  constructor(
    private readonly streams: StreamPublisher,
    private readonly bus: BusClient,
  ) {
    startIngestSeries();
  }

  /** Validates a trace as POST /traces takes it; a refusal is counted in the ingest metrics. */
  async check(ctx: ProjectContext, raw: unknown, path?: string, parentRules?: SpanParentRules): Promise<CheckedTrace> {
    return counted(await this.checkUncounted(ctx, raw, path, parentRules), raw);
  }

  /**
   * check() of each item of a batch (`traces[i]` paths), in order. Only an item whose
   * parentIds name spans outside its payload waits for trace-ingest; the others are checked
   * at once, so a batch of 1,000 makes no promise per trace.
   */
  async checkBatch(ctx: ProjectContext, items: readonly unknown[]): Promise<CheckedTrace[]> {
    const checked = new Array<CheckedTrace>(items.length);
    const lookups: Promise<void>[] = [];
    items.forEach((raw, index) => {
      const path = `traces[${index}]`;
      const local = checkInPayload(raw, path);
      if (!('foreign' in local)) {
        checked[index] = counted(local, raw);
        return;
      }
      lookups.push(
        this.checkStoredParents(ctx, local, path).then((result) => {
          checked[index] = counted(result, raw);
        }),
      );
    });
    if (lookups.length) await Promise.all(lookups);
    return checked;
  }

  /** The same check, uncounted: for a caller that refuses spans rather than traces (OTLP) and counts them itself. */
  async checkUncounted(ctx: ProjectContext, raw: unknown, path?: string, parentRules?: SpanParentRules): Promise<UncountedCheck> {
    const local = checkInPayload(raw, path, parentRules);
    return 'foreign' in local ? this.checkStoredParents(ctx, local, path, parentRules) : local;
  }

  /** The parent links of a trace whose parentIds name spans outside its payload, against the stored trace. */
  private async checkStoredParents(ctx: ProjectContext, { trace, foreign }: ForeignParents, path?: string, parentRules?: SpanParentRules): Promise<UncountedCheck> {
    const request: SpanParentsRequest = { ctx, traceId: trace.id, spanIds: foreign };
    const stored = new Map(Object.entries(await this.bus.request(Patterns.SpanParents, request)));
    return parentsChecked(trace, checkSpanParents(trace, stored, path, parentRules));
  }

  /**
   * Resolves once the stream holds every trace durably (or rejects: then none counts as
   * accepted). `fromOtlp` (traces otlpToTraces made): a span input or output that an attribute
   * holds travels once, as that attribute (leaveOutOtlpPayloads), when the stream serializes
   * its records; an in-process stream hands the trace over as it is, so there is nothing to save there.
   * `exportBytes`: the OTLP/protobuf export the one trace came from whole (exportTravelsAsBytes);
   * a serializing stream carries those bytes instead of the trace, and trace-ingest maps them again.
   * `awaited`: the caller will wait for the storage (`waitStored`), so trace-ingest writes a
   * receipt of each message; otherwise none, a row and two index entries per trace spared.
   */
  async publish(
    ctx: ProjectContext,
    traces: TraceInput[],
    { fromOtlp = false, awaited, exportBytes }: { fromOtlp?: boolean; awaited: boolean; exportBytes?: Uint8Array },
  ): Promise<Accepted[]> {
    const receivedAt = Date.now();
    const accepted = traces.map((trace) => ({ ingestId: newId('ing'), trace }));
    const serialized = this.streams.serializesRecords;
    const asBytes = serialized && exportBytes !== undefined && traces.length === 1 ? exportBytes : undefined;
    const spans = traces.reduce((sum, trace) => sum + trace.spans.length, 0);
    try {
      await this.streams.publish<TraceIngestMessage>(
        Topics.TraceIngest,
        accepted.map(({ ingestId, trace }) => {
          const base: TraceIngestMessage = { ingestId, projectId: ctx.projectId, receivedAt, trace, ...(awaited ? {} : NO_RECEIPT) };
          const key = `${ctx.projectId}/${trace.id}`;
          if (asBytes) return { key, value: { ...base, trace: { id: trace.id, spans: [] }, otlp: 'protobuf' }, bytes: asBytes };
          return { key, value: streamMessage(base, fromOtlp && serialized) };
        }),
      );
    } catch (err) {
      // Held back (the consumers lag) or the stream failed: the client is told to retry.
      countTracesRejected('unavailable', traces.length, spans);
      throw err;
    }
    countTracesAccepted(traces.length, spans);
    return accepted;
  }

  /**
   * Polls trace-ingest until every ingest is stored; undefined when that takes longer
   * than `waitMs` or cannot be told (the traces are accepted either way).
   */
  async waitStored(ctx: ProjectContext, ingestIds: string[], waitMs: number): Promise<IngestReceiptsReply | undefined> {
    const deadline = Date.now() + waitMs;
    const stored: IngestReceiptsReply = {};
    let pending = ingestIds;
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        const request: IngestReceiptsRequest = { ctx, ingestIds: pending };
        Object.assign(stored, await this.bus.request(Patterns.IngestReceipts, request));
      } catch {
        // Not knowing is not failing: the traces were accepted; keep asking until the deadline.
      }
      pending = pending.filter((id) => !(id in stored));
      if (!pending.length) return stored;
      if (Date.now() + pause > deadline) return undefined;
      await sleep(pause);
    }
  }
}

const NO_RECEIPT = { receipt: false } as const;

type UncountedCheck = CheckedTrace & ({ ok: true } | { reason: TraceRejectReason });
/** A valid trace whose parentIds name spans outside its payload: only the stored trace can tell. */
interface ForeignParents {
  trace: TraceInput;
  foreign: string[];
}

/** Everything of check() that the payload alone decides; a trace naming outside parents is handed back for the lookup. */
function checkInPayload(raw: unknown, path?: string, parentRules?: SpanParentRules): UncountedCheck | ForeignParents {
  const checked = validateTrace(raw, { path });
  if (!checked.ok) return { ...checked, reason: 'invalid' };
  const foreign = foreignParentIds(checked.trace);
  if (foreign.length) return { trace: checked.trace, foreign };
  return parentsChecked(checked.trace, checkSpanParents(checked.trace, new Map(), path, parentRules));
}

const parentsChecked = (trace: TraceInput, errors: FieldError[]): UncountedCheck => (errors.length ? { ok: false, errors, reason: 'unknown_parent' } : { ok: true, trace });

function streamMessage(base: TraceIngestMessage, leaveOutPayloads: boolean): TraceIngestMessage {
  if (!leaveOutPayloads) return base;
  const { trace, copies } = leaveOutOtlpPayloads(base.trace);
  return copies ? { ...base, trace, payloadCopies: copies } : base;
}

/** A check's answer as check() gives it: a refusal counted in the ingest metrics, its reason left out. */
function counted(result: UncountedCheck, raw: unknown): CheckedTrace {
  if (result.ok) return result;
  countRejected(result.reason, raw);
  return { ok: false, errors: result.errors };
}

/** Counts a trace refused at the check, its spans as far as the raw payload has a span list. */
function countRejected(reason: TraceRejectReason, raw: unknown): void {
  const spans = (raw as { spans?: unknown } | null)?.spans;
  countTracesRejected(reason, 1, Array.isArray(spans) ? spans.length : 0);
}

/** The 202 answer: the trace as sent, with the status it has by default. */
export function asAccepted(trace: TraceInput): TraceAcceptedView {
  const status = trace.status ?? (trace.endTime === undefined || trace.endTime === null ? 'running' : 'ok');
  return { id: trace.id, status, spanCount: trace.spans.length };
}
