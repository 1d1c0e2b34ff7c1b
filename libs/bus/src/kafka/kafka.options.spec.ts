import { kafkaClientOptions, kafkaServerSettings } from './kafka.options';

describe('Kafka consumer commits', () => {
  const connection = { brokers: ['127.0.0.1:1'], maxWaitTimeInMs: 500 };

  it("a service commits its requests once a second at a batch's end (writes commit themselves: topic-creating.server.spec)", () => {
    const run = kafkaServerSettings('project-service', connection).options?.run as Record<string, unknown>;
    expect(run.autoCommitInterval).toBe(1000);
    expect(run.autoCommit).not.toBe(false);
  });

  it('a caller commits its replies once a second: a reply read again finds nobody waiting', () => {
    const run = kafkaClientOptions('gateway', connection)?.run as Record<string, unknown>;
    expect(run.autoCommitInterval).toBe(1000);
  });
});
