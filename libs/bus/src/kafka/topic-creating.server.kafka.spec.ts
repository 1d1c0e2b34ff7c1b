import { KafkaHeaders } from '@nestjs/microservices';
import { startBroker, type Broker } from '@cinetrace/testing';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel, type Consumer, type Producer } from 'kafkajs';
import { kafkaServerSettings, type KafkaConnection } from './kafka.options';
import { PATTERN_HEADER } from './kafka-topics';
import { TopicCreatingServerKafka } from './topic-creating.server';

// TopicCreatingServerKafka on a real broker (KAFKA_BROKERS, or one started for this file):
// requests on one partition of its request topic, sent and answered as a caller's would be.
jest.setTimeout(120_000);

let broker: Broker | undefined;
let brokers: string;

beforeAll(async () => {
  if (process.env.KAFKA_BROKERS) brokers = process.env.KAFKA_BROKERS;
  else brokers = (broker = await startBroker()).brokers;
}, 240_000);
afterAll(() => broker?.remove());

/** A service answering `slow` (each held until released, in the order they started) and `fast` at once, with a caller on its own reply topic. */
class Rig {
  readonly service = `fairness-${randomUUID().slice(0, 8)}`;
  readonly replyTopic = `${this.service}-caller.reply`;
  readonly server: TopicCreatingServerKafka;
  /** Releases of the slow requests started so far. */
  readonly slow: Array<() => void> = [];
  /** Correlation ids answered, in the order their replies arrived. */
  readonly answered: string[] = [];
  private readonly kafka: Kafka;
  private producer?: Producer;
  private consumer?: Consumer;

  constructor(maxRequestsInFlight: number) {
    const connection: KafkaConnection = { brokers: brokers.split(','), maxWaitTimeInMs: 100, maxRequestsInFlight };
    this.server = new TopicCreatingServerKafka(kafkaServerSettings(this.service, connection).options, this.service, connection);
    this.server.addHandler('test.slow', () => new Promise((resolve) => this.slow.push(() => resolve({ slow: true }))), false);
    this.server.addHandler('test.fast', async () => ({ fast: true }), false);
    this.kafka = new Kafka({ clientId: `${this.service}-caller`, brokers: connection.brokers, logLevel: logLevel.NOTHING });
  }

  async start(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.createTopics({ topics: [{ topic: this.replyTopic, numPartitions: 1 }], waitForLeaders: false });
      // kafkajs' own wait for leaders gives up when the broker's metadata does not know a new topic yet (UNKNOWN_TOPIC_OR_PARTITION): ask until it does.
      await this.until('the reply topic has its leader', () =>
        admin.fetchTopicMetadata({ topics: [this.replyTopic] }).then(
          ({ topics }) => topics[0]?.partitions.length === 1 && topics[0].partitions.every((partition) => partition.leader >= 0),
          () => false,
        ),
      );
    } finally {
      // Also when the wait fails: an admin left connected keeps jest from exiting.
      await admin.disconnect();
    }
    this.consumer = this.kafka.consumer({ groupId: `${this.service}-caller`, maxWaitTimeInMs: 100 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: this.replyTopic, fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => void this.answered.push(String(message.headers?.[KafkaHeaders.CORRELATION_ID])),
    });
    this.producer = this.kafka.producer();
    await this.producer.connect();
    await new Promise<void>((resolve, reject) => void this.server.listen((err?: unknown) => (err ? reject(err as Error) : resolve())));
    // A new group starts at the topic's end once it has fetched: until a ping is answered, a request could be skipped.
    await this.until('the server answers', async () => {
      const id = await this.send('test.fast', 'ping');
      await sleep(300);
      return this.answered.includes(id);
    });
    this.answered.length = 0;
  }

  /** Sends a request to partition 0 of the service's request topic; its correlation id. */
  async send(pattern: string, name: string): Promise<string> {
    const id = `${name}-${randomUUID().slice(0, 8)}`;
    await this.producer!.send({
      topic: this.server.requestTopic,
      messages: [
        {
          partition: 0,
          value: '{}',
          headers: { [PATTERN_HEADER]: pattern, [KafkaHeaders.CORRELATION_ID]: id, [KafkaHeaders.REPLY_TOPIC]: this.replyTopic, [KafkaHeaders.REPLY_PARTITION]: '0' },
        },
      ],
    });
    return id;
  }

  async until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await sleep(50);
    }
  }

  /** The request topic's partitions the server's consumer has paused. */
  paused(): number {
    const consumer = (this.server as unknown as { consumer: Consumer }).consumer;
    return consumer.paused().flatMap((t) => t.partitions).length;
  }

  async stop(): Promise<void> {
    this.slow.forEach((release) => release());
    await this.server.close();
    await this.producer?.disconnect();
    await this.consumer?.disconnect();
    const admin = this.kafka.admin();
    await admin.connect();
    await admin.deleteTopics({ topics: [this.replyTopic, this.server.requestTopic] }).catch(() => undefined);
    await admin.disconnect();
  }
}

describe('TopicCreatingServerKafka on a broker', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.stop();
    rig = undefined;
  });

  it('answers a fast request while a slow one on the same partition is still running', async () => {
    rig = new Rig(8);
    await rig.start();
    const slow = await rig.send('test.slow', 'slow');
    await rig.until('the slow request started', () => rig!.slow.length === 1);
    const fast = await rig.send('test.fast', 'fast');
    await rig.until('the fast request is answered', () => rig!.answered.includes(fast), 10_000);
    expect(rig.answered).toEqual([fast]);
    rig.slow[0]();
    await rig.until('the slow request is answered', () => rig!.answered.includes(slow));
    expect(rig.answered).toEqual([fast, slow]);
  });

  it('at its bound of requests in flight pauses the topic, leaving the rest in Kafka, and takes them once one ends', async () => {
    rig = new Rig(2);
    await rig.start();
    const slow = [await rig.send('test.slow', 'slow-1'), await rig.send('test.slow', 'slow-2')];
    await rig.until('two slow requests started and the topic paused', () => rig!.slow.length === 2 && rig!.paused() > 0);
    expect(rig.server.requestsInFlight).toBe(2);
    const waiting = [await rig.send('test.slow', 'slow-3'), await rig.send('test.fast', 'fast')];
    await sleep(1500);
    // Neither was taken: no third handler started, no answer.
    expect(rig.slow).toHaveLength(2);
    expect(rig.answered).toEqual([]);

    // One ends: the next record is taken (the third slow request), and the bound is reached again.
    rig.slow[0]();
    await rig.until('the third slow request started', () => rig!.slow.length === 3);
    expect(rig.answered).toEqual([slow[0]]);
    rig.slow[1]();
    await rig.until('the fast request is answered', () => rig!.answered.includes(waiting[1]));
    rig.slow[2]();
    await rig.until('every request is answered', () => rig!.answered.length === 4);
    expect([...rig.answered].sort()).toEqual([...slow, ...waiting].sort());
    await rig.until('the topic resumed', () => rig!.paused() === 0);
    expect(rig.server.requestsInFlight).toBe(0);
  });
});
