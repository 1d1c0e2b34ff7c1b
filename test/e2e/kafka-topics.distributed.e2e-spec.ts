import { testKafka, unique } from '@cinetrace/testing';
import { ConfigResourceTypes } from 'kafkajs';
import { useStackOnOwnBroker } from './support/stack-hooks';

jest.setTimeout(120_000);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MAX_MESSAGE_BYTES = String(16 * 1024 * 1024);

// The topics as README's "Kafka topics" table documents them. The stack's broker refuses
// to auto-create topics, so each one exists only because an app created it on purpose.
const DOCUMENTED = [
  { topic: 'trace.ingest', partitions: 12, retentionMs: 7 * DAY_MS },
  { topic: 'trace.ingest.dead-letter', partitions: 12, retentionMs: 30 * DAY_MS },
  { topic: 'benchmark.task.events', partitions: 12, retentionMs: 7 * DAY_MS },
  { topic: 'benchmark.task.events.dead-letter', partitions: 12, retentionMs: 30 * DAY_MS },
  { topic: 'gateway.reply', partitions: 12, retentionMs: HOUR_MS },
  { topic: 'benchmark-service-client.reply', partitions: 12, retentionMs: HOUR_MS },
  // The request topic of each service (every pattern it answers).
  { topic: 'project-service.requests', partitions: 12, retentionMs: HOUR_MS },
  { topic: 'prompt-service.requests', partitions: 12, retentionMs: HOUR_MS },
  { topic: 'trace-ingest.requests', partitions: 12, retentionMs: HOUR_MS },
  { topic: 'benchmark-service.requests', partitions: 12, retentionMs: HOUR_MS },
  { topic: 'media-service.requests', partitions: 12, retentionMs: HOUR_MS },
];

describe('Kafka topics on a fresh broker (distributed)', () => {
  const own = useStackOnOwnBroker();

  it('are created by the apps with the partitions and retention README documents', async () => {
    const admin = testKafka(unique('e2e-topics'), own.broker.env).admin();
    await admin.connect();
    try {
      const names = DOCUMENTED.map((t) => t.topic);
      const { topics } = await admin.fetchTopicMetadata({ topics: names });
      const { resources } = await admin.describeConfigs({
        includeSynonyms: false,
        resources: names.map((name) => ({ type: ConfigResourceTypes.TOPIC, name, configNames: ['retention.ms', 'max.message.bytes'] })),
      });
      const found = names.map((topic) => {
        const configs = resources.find((r) => r.resourceName === topic)?.configEntries ?? [];
        const value = (name: string) => configs.find((c) => c.configName === name)?.configValue;
        return {
          topic,
          partitions: topics.find((t) => t.name === topic)?.partitions.length,
          retentionMs: Number(value('retention.ms')),
          maxMessageBytes: value('max.message.bytes'),
        };
      });
      expect(found).toEqual(DOCUMENTED.map((t) => ({ ...t, maxMessageBytes: MAX_MESSAGE_BYTES })));
      // No topic per pattern any more: every topic there is one of the table's (or Kafka's own).
      const all = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
      expect(all.filter((t) => !names.includes(t) && !t.endsWith('.reply')).sort()).toEqual([]);
    } finally {
      await admin.disconnect();
    }
  });
});
