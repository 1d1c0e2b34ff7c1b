import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { Logger, OnApplicationShutdown } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { CompressionTypes, Kafka, Message, Partitioners, Producer } from 'kafkajs';
import { takeWithin } from '../take-within';
import { BUS_RETRY_AFTER_SECONDS } from '../to-domain-error';
import { KafkaGroupLag } from '../kafka/consumer-group-lag';
import { KafkaConnection, kafkaClientConfig } from '../kafka/kafka.options';
import { LagBound, LagGate } from './lag-gate';
import { encodeStreamRecord } from './stream-record-codec';
import { StreamPublisher, StreamRecord } from './stream.types';

interface PendingSend {
  topic: string;
  messages: Message[];
  bytes: number;
  /** performance.now() when the publish was queued: lingering counts from the oldest one. */
  queuedAt: number;
  done: (err?: unknown) => void;
}

/**
 * Bytes of records gathered into one produce request at most (a publish larger than this
 * goes alone): a broker takes at most `message.max.bytes` (1 MB by default) per partition's
 * record batch, and one large request would hold up every publish queued behind it.
 */
const MAX_REQUEST_BYTES = 1024 * 1024;

export interface KafkaStreamPublisherOptions {
  /**
   * How long a publish may wait for more to join its produce request (Kafka's `linger.ms`,
   * counted from the oldest queued publish): a few ms of latency buys large record batches,
   * which both the broker and the batch consumers need to keep up under load. Publishes
   * that queued up behind a request in flight have waited already and go at once.
   */
  lingerMs?: number;
  /** Topics whose publishes are refused (503 with Retry-After) while their consumer group lags too far. */
  lagBounds?: LagBound[];
}

/**
 * Publishes to Kafka and resolves only when all in-sync replicas acknowledged the
 * records (acks = -1): a client told "accepted" can rely on the broker having them.
 * Publishes that arrive while a produce request is in flight are sent together in the
 * next one (one record batch per partition instead of one per request), which is what
 * keeps the broker, and the consumers that fetch batch by batch, fast under load. A topic
 * with a lag bound refuses publishes while its consumers are too far behind (see LagGate).
 */
export class KafkaStreamPublisher extends StreamPublisher implements OnApplicationShutdown {
  private readonly logger = new Logger(KafkaStreamPublisher.name);
  private readonly kafka: Kafka;
  private producer?: Producer;
  private connecting?: Promise<Producer>;
  private queue: PendingSend[] = [];
  private sending = false;
  private readonly lingerMs: number;
  private readonly gates = new Map<string, LagGate>();
  private readonly lag?: KafkaGroupLag;

  constructor(clientId: string, connection: KafkaConnection, options: KafkaStreamPublisherOptions = {}) {
    super();
    this.kafka = new Kafka(kafkaClientConfig(`${clientId}-streams`, connection));
    this.lingerMs = options.lingerMs ?? 10;
    if (options.lagBounds?.length) {
      const lag = (this.lag = new KafkaGroupLag(clientId, connection));
      for (const { topic, groupId, maxLagBytes } of options.lagBounds) {
        const gate = new LagGate(() => lag.read(groupId, topic), maxLagBytes, { logger: { stream: topic, log: this.logger } });
        this.gates.set(topic, gate);
        gate.start();
      }
    }
  }

  /** How far the consumers of a lag-bounded topic are behind, as its gate last read it (undefined: unbounded topic, or unknown yet). */
  lagOf(topic: string): { records: number | undefined; bytes: number | undefined } {
    const gate = this.gates.get(topic);
    return { records: gate?.behind(), bytes: gate?.behindBytes() };
  }

  publish<T>(topic: string, records: StreamRecord<T>[]): Promise<void> {
    const gate = this.gates.get(topic);
    const waitSeconds = gate?.waitSeconds();
    if (waitSeconds !== undefined) {
      const detail = `More records wait on '${topic}' than its consumers may fall behind by; try again in ${waitSeconds} s`;
      return Promise.reject(new DomainError(ErrorCode.Unavailable, detail, undefined, waitSeconds));
    }
    let bytes = 0;
    const messages = records.map((r) => {
      const message = encodeStreamRecord(r);
      bytes += message.value.length + r.key.length;
      return message;
    });
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ topic, messages, bytes, queuedAt: performance.now(), done: (err) => (err === undefined ? resolve() : reject(err)) });
      if (!this.sending) void this.drain();
    }).then(() => gate?.notePublished(records.length, bytes));
  }

  private async drain(): Promise<void> {
    this.sending = true;
    while (this.queue.length) {
      const lingerLeft = this.lingerMs - (performance.now() - this.queue[0].queuedAt);
      if (lingerLeft >= 1 && this.queuedBytes() < MAX_REQUEST_BYTES) await sleep(lingerLeft);
      const batch = takeWithin(this.queue, MAX_REQUEST_BYTES, (p) => p.bytes);
      try {
        const producer = await this.connected();
        const byTopic = new Map<string, Message[]>();
        for (const p of batch) {
          const messages = byTopic.get(p.topic);
          if (messages) messages.push(...p.messages);
          else byTopic.set(p.topic, [...p.messages]);
        }
        await producer.sendBatch({
          acks: -1,
          compression: CompressionTypes.None,
          topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
        });
        batch.forEach((p) => p.done());
      } catch (err) {
        this.logger.warn(`Publishing ${batch.length} request(s) failed: ${(err as Error)?.message ?? err}`);
        batch.forEach((p) => p.done(publishError(err)));
      }
    }
    this.sending = false;
  }

  private queuedBytes(): number {
    return this.queue.reduce((sum, p) => sum + p.bytes, 0);
  }

  async isReachable(): Promise<boolean> {
    try {
      await this.connected();
      return true;
    } catch {
      return false;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async close(): Promise<void> {
    this.gates.forEach((gate) => gate.stop());
    await this.lag?.close();
    await this.producer?.disconnect().catch(() => undefined);
  }

  /** One connection attempt at a time; a failed one is forgotten so the next call retries. */
  private connected(): Promise<Producer> {
    this.connecting ??= (async () => {
      const producer = this.kafka.producer({
        allowAutoTopicCreation: false,
        // Murmur2 on the key, as the Java client: a trace's records keep to one partition.
        createPartitioner: Partitioners.DefaultPartitioner,
        retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 500 },
      });
      producer.on(producer.events.DISCONNECT, () => {
        this.connecting = undefined;
      });
      await producer.connect();
      this.producer = producer;
      return producer;
    })().catch((err) => {
      this.connecting = undefined;
      throw err;
    });
    return this.connecting;
  }
}

/** Kafka's answers to a record batch above the topic's `max.message.bytes`: retrying cannot help. */
const TOO_LARGE = new Set(['MESSAGE_TOO_LARGE', 'RECORD_LIST_TOO_LARGE']);

/** What a failed produce means to the publisher: the record is too large (413), or the stream is down (503). */
export function publishError(err: unknown): DomainError {
  for (let e = err as { type?: string; originalError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e.type && TOO_LARGE.has(e.type)) {
      return new DomainError(ErrorCode.PayloadTooLarge, 'The record is larger than the event stream accepts');
    }
    e = (e.originalError ?? e.cause) as typeof e;
  }
  return new DomainError(ErrorCode.Unavailable, 'The event stream is unreachable', undefined, BUS_RETRY_AFTER_SECONDS);
}
