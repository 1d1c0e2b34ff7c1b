import { kafkaClientOptions, kafkaServerSettings } from './kafka.options';

describe('Kafka consumer commits', () => {
  const connection = { brokers: ['127.0.0.1:1'], maxWaitTimeInMs: 500 };

  it('a service commits its requests after every batch: one read again after a restart would run twice', () => {
    const run = kafkaServerSettings('project-service', connection).options?.run as Record<string, unknown>;
    expect(run.autoCommitInterval).toBeUndefined();
    expect(run.autoCommitThreshold).toBeUndefined();
    expect(run.autoCommit).not.toBe(false);
  });

  it('a caller commits its replies once a second: a reply read again finds nobody waiting', () => {
    const run = kafkaClientOptions('gateway', connection).run as Record<string, unknown>;
    expect(run.autoCommitInterval).toBe(1000);
  });
});
