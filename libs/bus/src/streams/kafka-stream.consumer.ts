import { Logger } from '@nestjs/common';
import { Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { KafkaConnection, kafkaClientConfig, KAFKA_GROUP_TIMING } from '../kafka/kafka.options';
import { deadLetterTopic, ensureTopics, streamTopic } from '../kafka/kafka-topics';
import { BatchHandler, StreamRecord } from './stream.types';
import { OffsetCommitter, type PartitionOffset } from './offset-committer';
import { decodeStreamRecord } from './stream-record-codec';
import { WriteBehind } from './write-behind';

export interface StreamConsumerOptions {
  groupId: string;
  topic: string;
  /** Where a record goes that fails `maxAttempts` times on its own, so it cannot block its partition. */
  deadLetterTopic: string;
  maxAttempts?: number;
  partitionsConsumedConcurrently?: number;
  /**
   * Transactions storing at once (1 by default), each for the partitions `partition % lanes`
   * picks: a key's records stay in one partition, so in one lane and in order. While one lane
   * waits on the database another builds its statements; lanes must not touch each other's rows.
   */
  writeLanes?: number;
  /** Partitions the topic is created with when it does not exist: the most consumers that can share it. */
  partitions?: number;
  /** How long a write waits for more fetched records to join it (0: none; see LINGER_ENDS_AT_RECORDS). */
  writeLingerMs?: number;
  /**
   * Failures of what is underneath (a database blip) rather than of the records: those
   * are retried until they pass, never dead-lettered, so an outage loses nothing.
   */
  isTransient?: (err: unknown) => boolean;
}

/** A batch as fetched from one partition, waiting to be stored. */
interface FetchedBatch {
  topic: string;
  partition: number;
  lastOffset: string;
  messages: KafkaMessage[];
  size: number;
}

/** Records fetched and not yet stored, at most: beyond it, fetching waits for the store. */
const MAX_BACKLOG_RECORDS = 5000;
/** Records handed to the handler in one call, at most (fetched batches are never split). */
const MAX_RECORDS_PER_WRITE = 2000;
/** Records waiting that end a write's linger: a statement this large gains little from growing. */
const LINGER_ENDS_AT_RECORDS = 500;
/** Offsets are committed at most this often; a crash or rebalance reads at most this much again. */
const COMMIT_EVERY_MS = 200;

/**
 * Consumes a topic in batches: the handler commits a batch's effects, then the offsets
 * are committed, within COMMIT_EVERY_MS (at-least-once; handlers are idempotent).
 * Fetching runs ahead of the store: what is fetched while the handler works is handed to
 * it together next time (one transaction for many fetched batches, across the partitions
 * of a write lane, each partition's records in order). A failing batch is retried with
 * backoff, then split record by record; a record that still fails is sent to the
 * dead-letter topic with the reason, and consumption moves on.
 */
export class KafkaStreamConsumer<T = unknown> {
  private readonly logger = new Logger(KafkaStreamConsumer.name);
  private readonly kafka: Kafka;
  private consumer?: Consumer;
  private readonly maxAttempts: number;
  private readonly writers: WriteBehind<FetchedBatch>[];
  private readonly offsets = new OffsetCommitter((offsets) => this.commitOffsets(offsets), COMMIT_EVERY_MS);
  private stopping = false;

  constructor(
    clientId: string,
    private readonly connection: KafkaConnection,
    private readonly options: StreamConsumerOptions,
    private readonly handler: BatchHandler<T>,
  ) {
    this.kafka = new Kafka(kafkaClientConfig(clientId, connection));
    this.maxAttempts = options.maxAttempts ?? 3;
    const lanes = Math.max(1, options.writeLanes ?? 1);
    const linger = { ms: options.writeLingerMs ?? 0, records: LINGER_ENDS_AT_RECORDS };
    this.writers = Array.from({ length: lanes }, () => new WriteBehind<FetchedBatch>((batches) => this.store(batches), MAX_RECORDS_PER_WRITE, linger));
  }

  async start(): Promise<void> {
    const consumer = this.kafka.consumer({
      groupId: this.options.groupId,
      maxWaitTimeInMs: this.connection.maxWaitTimeInMs,
      allowAutoTopicCreation: false,
      ...KAFKA_GROUP_TIMING,
      retry: { initialRetryTime: 200, maxRetryTime: 2000, retries: Number.MAX_SAFE_INTEGER },
    });
    this.consumer = consumer;
    await this.ensureTopics();
    await consumer.connect();
    await consumer.subscribe({ topic: this.options.topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 4,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale }) => {
        if (!batch.messages.length || !isRunning() || isStale()) return;
        const lastOffset = batch.messages[batch.messages.length - 1].offset;
        const { topic, partition, messages } = batch;
        const writer = this.writers[partition % this.writers.length];
        // Stored (and its offset committed) by its lane's writer; a batch it never stores is fetched again by the next owner.
        writer.add({ topic, partition, lastOffset, messages, size: messages.length }).catch(() => undefined);
        // The next fetch goes on after this batch; only the commit waits for the store.
        resolveOffset(lastOffset);
        while (writer.backlog > MAX_BACKLOG_RECORDS / this.writers.length && isRunning()) {
          await writer.progress(1000);
          await heartbeat().catch(() => undefined);
        }
      },
    });
  }

  /** Creates the stream and its dead-letter topic on purpose: auto-created ones get the broker's defaults (often 1 partition, 1 MB records). */
  private ensureTopics(): Promise<void> {
    const partitions = this.options.partitions ?? 12;
    return ensureTopics(this.options.groupId, this.connection, [streamTopic(this.options.topic, partitions), deadLetterTopic(this.options.deadLetterTopic, partitions)], {
      groupId: this.options.groupId,
    });
  }

  /** Stops fetching, lets the writer store and commit what it holds, then leaves the group. */
  async stop(): Promise<void> {
    await this.consumer?.stop().catch(() => undefined);
    this.stopping = true;
    await Promise.all(this.writers.map((writer) => writer.idle()));
    await this.offsets.flush();
    await this.consumer?.disconnect().catch(() => undefined);
  }

  /**
   * Stores fetched batches and commits their offsets. Only a shutdown stops it: other
   * failures (the dead-letter topic unreachable, say) are retried, so no batch is skipped.
   */
  private async store(batches: FetchedBatch[]): Promise<void> {
    for (let pauseMs = 200; ; pauseMs = Math.min(pauseMs * 2, 5000)) {
      try {
        await this.handleBatch(batches.flatMap((b) => b.messages));
        break;
      } catch (err) {
        if (this.stopping) throw err; // leave the offsets uncommitted: the next owner redoes the batch
        this.logger.warn(`Storing records of '${this.options.topic}' failed (${(err as Error)?.message ?? err}); retrying in ${pauseMs} ms`);
        await sleep(pauseMs);
      }
    }
    this.offsets.add(batches.map(({ topic, partition, lastOffset }) => ({ topic, partition, offset: (BigInt(lastOffset) + 1n).toString() })));
  }

  /** Commits past the last stored record of each partition; a failed commit only means those records are read again. */
  private async commitOffsets(offsets: PartitionOffset[]): Promise<void> {
    try {
      await this.consumer?.commitOffsets(offsets);
    } catch (err) {
      this.logger.warn(`Committing offsets of '${this.options.topic}' failed (${(err as Error)?.message ?? err}); those records may be read again`);
    }
  }

  private async handleBatch(messages: KafkaMessage[]): Promise<void> {
    const decoded = messages.map((m) => ({ message: m, record: decodeStreamRecord<T>(m) }));
    const poison = decoded.filter((d) => d.record === undefined);
    for (const p of poison) await this.deadLetter(p.message, 'the value is not JSON, or holds a prototype-reaching key');
    const good = decoded.filter((d) => d.record !== undefined);
    if (!good.length) return;
    const records = good.map((d) => d.record!);
    if (await this.attempt(() => this.handler(records))) return;
    // The batch keeps failing: find the record at fault so the others get through.
    for (const { message, record } of good) {
      if (!(await this.attempt(() => this.handler([record!])))) {
        await this.deadLetter(message, 'the record failed every attempt');
      }
    }
  }

  private async attempt(work: () => Promise<void>): Promise<boolean> {
    let outageMs = 200;
    for (let attempt = 1; attempt <= this.maxAttempts;) {
      try {
        await work();
        return true;
      } catch (err) {
        const reason = (err as Error)?.message ?? String(err);
        if (this.options.isTransient?.(err)) {
          if (this.stopping) throw err; // leave the offsets uncommitted: the next owner redoes the batch
          this.logger.warn(`Storing a batch of '${this.options.topic}' failed (${reason}); retrying in ${outageMs} ms`);
          await sleep(outageMs);
          outageMs = Math.min(outageMs * 2, 5000);
          continue;
        }
        this.logger.warn(`Batch of '${this.options.topic}' failed (attempt ${attempt}): ${reason}`);
        if (attempt < this.maxAttempts) await sleep(100 * 2 ** attempt);
        attempt += 1;
      }
    }
    return false;
  }

  private async deadLetter(message: KafkaMessage, reason: string): Promise<void> {
    const producer = this.kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      await producer.send({
        topic: this.options.deadLetterTopic,
        acks: -1,
        messages: [{ key: message.key, value: message.value, headers: { ...message.headers, 'x-dead-letter-reason': reason } }],
      });
      this.logger.error(`A record of '${this.options.topic}' went to '${this.options.deadLetterTopic}': ${reason}`);
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
  }
}
