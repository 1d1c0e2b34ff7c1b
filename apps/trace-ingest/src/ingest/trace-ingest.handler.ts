import { StreamRecord } from '@cinetrace/bus';
import { SCORE_DATA_TYPES, SCORE_SOURCES, StreamScore, TraceIngestMessage, TraceMediaAttachment } from '@cinetrace/contracts';
import { timeTraceBatchWrite } from '@cinetrace/metrics';
import { restoreAttributeCopies, restoreOtlpPayloads, traceOfExportRecord } from '@cinetrace/traces';
import { Injectable, Logger } from '@nestjs/common';
import { TraceMediaRelay } from '../media/trace-media-relay';
import { TraceWriter } from '../store/trace-writer';

/**
 * Handles a batch of the trace stream. The gateway validated every trace, so a record
 * that is not a well-formed message is poison: throwing makes the consumer retry it
 * alone and then set it aside on the dead-letter topic.
 */
@Injectable()
export class TraceIngestHandler {
  private readonly logger = new Logger(TraceIngestHandler.name);

  constructor(
    private readonly writer: TraceWriter,
    private readonly media: TraceMediaRelay,
  ) {}

  readonly handle = async (records: StreamRecord<TraceIngestMessage>[]): Promise<void> => {
    // An OTLP export that crossed as its bytes becomes the trace the gateway mapped from them.
    const messages = records.map((r) => (r.value?.otlp === 'protobuf' ? withExportTrace(r) : r.value));
    const malformed = messages.findIndex((m) => !isIngestMessage(m));
    if (malformed >= 0) throw new Error(`record ${records[malformed].key} is not a trace ingest message`);
    // The gateway left out span inputs and outputs that an attribute holds (older gateways: the attributes): the trace is merged as it validated it.
    for (const message of messages) {
      if (message.payloadCopies) restoreOtlpPayloads(message.trace, message.payloadCopies);
      if (message.attributeCopies) restoreAttributeCopies(message.trace, message.attributeCopies);
    }
    const started = Date.now();
    const mediaQueued = await timeTraceBatchWrite(messages.length, () => this.writer.store(messages));
    if (mediaQueued) this.media.wake();
    this.logger.debug(
      `stored ${messages.length} trace(s) in ${Date.now() - started} ms, ${started - Math.min(...messages.map((m) => m.receivedAt))} ms after the oldest was received`,
    );
  };
}

/** The message with the trace its export bytes hold (throws when they hold no such trace, or are missing). */
function withExportTrace({ key, value, bytes }: StreamRecord<TraceIngestMessage>): TraceIngestMessage {
  const traceId = value.trace?.id;
  if (!bytes || typeof traceId !== 'string') throw new Error(`record ${key} names an OTLP export it does not carry`);
  return { ...value, trace: traceOfExportRecord(bytes, traceId) };
}

function isIngestMessage(value: unknown): value is TraceIngestMessage {
  const m = value as TraceIngestMessage;
  return (
    !!m &&
    typeof m.ingestId === 'string' &&
    typeof m.projectId === 'string' &&
    typeof m.receivedAt === 'number' &&
    !!m.trace &&
    typeof m.trace.id === 'string' &&
    Array.isArray(m.trace.spans) &&
    m.trace.spans.every((s) => !!s && typeof s.id === 'string' && typeof s.name === 'string' && typeof s.startTime === 'number') &&
    (m.payloadCopies === undefined || (Array.isArray(m.payloadCopies) && m.payloadCopies.every(isPayloadCopy))) &&
    (m.attributeCopies === undefined || (Array.isArray(m.attributeCopies) && m.attributeCopies.every(isCopy))) &&
    (m.receipt === undefined || m.receipt === false) &&
    (m.media === undefined || (Array.isArray(m.media) && m.media.every(isMediaAttachment))) &&
    (m.scores === undefined || (Array.isArray(m.scores) && m.scores.every(isStreamScore)))
  );
}

const stringOrNull = (value: unknown) => value === null || typeof value === 'string';

/** A score sent with a trace (TraceIngestMessage.scores): what the scores table needs of it, typed. */
function isStreamScore(value: unknown): boolean {
  const s = value as StreamScore;
  return (
    !!s &&
    typeof s.id === 'string' &&
    stringOrNull(s.spanId) &&
    typeof s.name === 'string' &&
    (s.value === null || (typeof s.value === 'number' && Number.isFinite(s.value))) &&
    stringOrNull(s.stringValue) &&
    (SCORE_DATA_TYPES as readonly unknown[]).includes(s.dataType) &&
    (SCORE_SOURCES as readonly unknown[]).includes(s.source) &&
    stringOrNull(s.comment) &&
    stringOrNull(s.evaluatorId) &&
    typeof s.createdAt === 'number' &&
    Number.isFinite(s.createdAt)
  );
}

/** media-service's attachment of copied media to an output (TraceIngestMessage.media). */
function isMediaAttachment(value: unknown): boolean {
  const a = value as TraceMediaAttachment;
  return (
    !!a &&
    (a.spanId === null || typeof a.spanId === 'string') &&
    (a.videoSeconds === null || (typeof a.videoSeconds === 'number' && Number.isFinite(a.videoSeconds) && a.videoSeconds >= 0)) &&
    Array.isArray(a.media) &&
    a.media.every((m) => !!m && typeof m.url === 'string' && typeof m.mediaId === 'string')
  );
}

const isColumn = (column: unknown) => column === 'input' || column === 'output';
const isPayloadCopy = (copy: unknown) =>
  Array.isArray(copy) &&
  typeof copy[0] === 'string' &&
  isColumn(copy[1]) &&
  typeof copy[2] === 'string' &&
  (copy[3] === 'text' || copy[3] === 'json') &&
  (copy[4] === undefined || copy[4] === 'trace');
const isCopy = (copy: unknown) => Array.isArray(copy) && typeof copy[0] === 'string' && typeof copy[1] === 'string' && isColumn(copy[2]);
