import { Logger } from '@nestjs/common';
import { Admin, Kafka, KafkaJSError, KafkaJSProtocolError } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { KafkaConnection, kafkaClientConfig } from './kafka.options';

/** A topic as an app creates it: the settings README's "Kafka topics" table documents. */
export interface TopicSpec {
  topic: string;
  partitions: number;
  /** How long the broker keeps a record (Kafka's `retention.ms`). */
  retentionMs: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * `max.message.bytes` of every topic the apps create: a record carries a whole trace or
 * request, and the gateway takes bodies up to 5 MiB by default (Kafka's own limit is 1 MB).
 */
export const TOPIC_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/**
 * Partitions of a service's request topic: the most replicas of that service that share its
 * requests, each handling up to 4 partitions at once.
 */
export const REQUEST_TOPIC_PARTITIONS = 12;

/**
 * The one request topic of a service, for every pattern it answers (the pattern rides in
 * the PATTERN_HEADER): every fetch and every fetch answer names each partition behind a
 * consumer, so a topic per pattern would make each request-reply several times dearer.
 */
export const serviceRequestTopic = (service: string): string => `${service}.requests`;
/** The header of a request record that names its pattern. */
export const PATTERN_HEADER = 'cinetrace_pattern';
/** Partitions of a caller's reply topic (`<client>.reply`): the most replicas of that caller (each owns one or more). */
export const REPLY_TOPIC_PARTITIONS = 12;
/** A request or reply is worthless once its caller gave up (BUS_TIMEOUT_MS): an hour is plenty. */
export const REQUEST_RETENTION_MS = HOUR_MS;
/** A stream keeps what its consumers have not stored yet through a week-long outage of them. */
export const STREAM_RETENTION_MS = 7 * DAY_MS;
/** Dead letters wait a month for someone to look at them. */
export const DEAD_LETTER_RETENTION_MS = 30 * DAY_MS;

export const requestTopic = (topic: string): TopicSpec => ({ topic, partitions: REQUEST_TOPIC_PARTITIONS, retentionMs: REQUEST_RETENTION_MS });
export const replyTopic = (topic: string): TopicSpec => ({ topic, partitions: REPLY_TOPIC_PARTITIONS, retentionMs: REQUEST_RETENTION_MS });
export const streamTopic = (topic: string, partitions: number): TopicSpec => ({ topic, partitions, retentionMs: STREAM_RETENTION_MS });
export const deadLetterTopic = (topic: string, partitions: number): TopicSpec => ({ topic, partitions, retentionMs: DEAD_LETTER_RETENTION_MS });

/** How long an app keeps trying to create its topics at startup before it gives up and exits. */
export const TOPIC_STARTUP_DEADLINE_MS = 60_000;

const logger = new Logger('KafkaTopics');

/**
 * Creates the topics an app consumes or answers on, before it subscribes: a topic the broker
 * auto-creates gets its defaults (often one partition, 1 MB records, a week), and a consumer
 * that subscribes while it is being created fails its startup ("does not host this
 * topic-partition"). A topic that exists already is left as it is. Retriable failures (the
 * broker still starting, a leader being elected) are retried until `deadlineMs`; with a
 * `groupId`, until that group's coordinator answers too.
 */
export async function ensureTopics(clientId: string, connection: KafkaConnection, topics: TopicSpec[], options: { groupId?: string; deadlineMs?: number } = {}): Promise<void> {
  if (!topics.length) return;
  const deadlineMs = options.deadlineMs ?? TOPIC_STARTUP_DEADLINE_MS;
  const admin = new Kafka(kafkaClientConfig(`${clientId}-admin`, connection)).admin();
  const giveUpAt = Date.now() + deadlineMs;
  try {
    for (let pauseMs = 250; ; pauseMs = Math.min(pauseMs * 2, 4000)) {
      try {
        await admin.connect();
        await admin
          .createTopics({
            waitForLeaders: true,
            topics: topics.map((spec) => ({
              topic: spec.topic,
              numPartitions: spec.partitions,
              configEntries: [
                { name: 'retention.ms', value: String(spec.retentionMs) },
                { name: 'max.message.bytes', value: String(TOPIC_MAX_MESSAGE_BYTES) },
              ],
            })),
          })
          .catch((err: unknown) => {
            // Another app (or replica) created some first: they may still be electing leaders.
            if (!alreadyExists(err)) throw err;
          });
        await untilServed(
          admin,
          topics.map((t) => t.topic),
        );
        // A fresh cluster creates its offsets topic on the first group lookup: a consumer
        // joining meanwhile gives up ("group coordinator not available") after a few tries.
        if (options.groupId) await admin.describeGroups([options.groupId]);
        return;
      } catch (err) {
        if (!isRetriable(err) || Date.now() + pauseMs > giveUpAt) {
          throw new Error(`could not create Kafka topics ${topics.map((t) => t.topic).join(', ')}: ${(err as Error)?.message ?? err}`);
        }
        logger.warn(`Creating Kafka topics failed (${(err as Error)?.message ?? err}); retrying in ${pauseMs} ms`);
        await sleep(pauseMs);
      }
    }
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** Waits until the broker serves every partition of `topics` (a leader each): subscribing before that fails. */
async function untilServed(admin: Admin, topics: string[]): Promise<void> {
  for (;;) {
    const { topics: found } = await admin.fetchTopicMetadata({ topics });
    const led = found.length === topics.length && found.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
    if (!led) {
      await sleep(100);
      continue;
    }
    // A leader named in the metadata may not have loaded the partition yet ("not the leader"
    // to a produce): asking each leader for its offsets proves it serves them.
    for (const topic of topics) await admin.fetchTopicOffsets(topic);
    return;
  }
}

/** Some topics of a createTopics call existed already (kafkajs only swallows the case where all did). */
function alreadyExists(err: unknown): boolean {
  const errors = (err as { errors?: unknown[] })?.errors;
  return Array.isArray(errors) && errors.length > 0 && errors.every((e) => (e as { type?: string })?.type === 'TOPIC_ALREADY_EXISTS');
}

/** Connection failures and broker-side "not yet" errors; a refused setting (invalid partitions, say) is not retried. */
function isRetriable(err: unknown): boolean {
  const errors = (err as { errors?: unknown[] })?.errors;
  if (Array.isArray(errors) && errors.length) return errors.every((e) => isRetriable(e) || (e as { type?: string })?.type === 'TOPIC_ALREADY_EXISTS');
  if (err instanceof KafkaJSProtocolError) return err.retriable;
  return err instanceof KafkaJSError;
}
