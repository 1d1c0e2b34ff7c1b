import { StreamRecord } from '@cinetrace/bus';
import { TraceIngestMessage } from '@cinetrace/contracts';
import { timeTraceBatchWrite } from '@cinetrace/metrics';
import { restoreAttributeCopies } from '@cinetrace/traces';
import { Injectable, Logger } from '@nestjs/common';
import { TraceWriter } from '../store/trace-writer';

/**
 * Handles a batch of the trace stream. The gateway validated every trace, so a record
 * that is not a well-formed message is poison: throwing makes the consumer retry it
 * alone and then set it aside on the dead-letter topic.
 */
@Injectable()
export class TraceIngestHandler {
  private readonly logger = new Logger(TraceIngestHandler.name);

  constructor(private readonly writer: TraceWriter) {}

  readonly handle = async (records: StreamRecord<TraceIngestMessage>[]): Promise<void> => {
    const messages = records.map((r) => r.value);
    const malformed = messages.findIndex((m) => !isIngestMessage(m));
    if (malformed >= 0) throw new Error(`record ${records[malformed].key} is not a trace ingest message`);
    // The gateway left out attributes that repeat their span's input or output: the trace is merged as it validated it.
    for (const message of messages) if (message.attributeCopies) restoreAttributeCopies(message.trace, message.attributeCopies);
    const started = Date.now();
    await timeTraceBatchWrite(messages.length, () => this.writer.store(messages));
    this.logger.debug(
      `stored ${messages.length} trace(s) in ${Date.now() - started} ms, ${started - Math.min(...messages.map((m) => m.receivedAt))} ms after the oldest was received`,
    );
  };
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
    (m.attributeCopies === undefined || (Array.isArray(m.attributeCopies) && m.attributeCopies.every(isCopy)))
  );
}

const isCopy = (copy: unknown) => Array.isArray(copy) && typeof copy[0] === 'string' && typeof copy[1] === 'string' && (copy[2] === 'input' || copy[2] === 'output');
