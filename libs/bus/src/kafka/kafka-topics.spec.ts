import { Kafka, KafkaJSAggregateError, KafkaJSConnectionError, KafkaJSProtocolError } from 'kafkajs';
import { ensureTopics, requestTopic, streamTopic } from './kafka-topics';

const connection = { brokers: ['127.0.0.1:1'], maxWaitTimeInMs: 500 };
const protocolError = (type: string, retriable: boolean) => new KafkaJSProtocolError(Object.assign(new Error(type), { type, code: 1, retriable }) as never);

/** A fake admin: createTopics answers from `outcomes` in turn (an error is thrown), then succeeds. */
function fakeAdmin(outcomes: unknown[]) {
  const admin = {
    connect: jest.fn(async () => undefined),
    disconnect: jest.fn(async () => undefined),
    createTopics: jest.fn(async () => {
      const next = outcomes.shift();
      if (next) throw next;
      return true;
    }),
    fetchTopicMetadata: jest.fn(async ({ topics }: { topics: string[] }) => ({
      topics: topics.map((name) => ({ name, partitions: [{ partitionId: 0, leader: 1 }] })),
    })),
    fetchTopicOffsets: jest.fn(async () => []),
    describeGroups: jest.fn(async () => ({ groups: [] })),
  };
  jest.spyOn(Kafka.prototype, 'admin').mockReturnValue(admin as never);
  return admin;
}

describe('ensureTopics', () => {
  afterEach(() => jest.restoreAllMocks());

  it('creates the topics with their partitions, retention and record limit, then waits for their leaders and the group', async () => {
    const admin = fakeAdmin([]);
    await ensureTopics('svc', connection, [requestTopic('a.get'), streamTopic('s', 6)], { groupId: 'svc-server' });
    expect(admin.createTopics).toHaveBeenCalledWith({
      waitForLeaders: true,
      topics: [
        {
          topic: 'a.get',
          numPartitions: 12,
          configEntries: [
            { name: 'retention.ms', value: '3600000' },
            { name: 'max.message.bytes', value: '16777216' },
          ],
        },
        {
          topic: 's',
          numPartitions: 6,
          configEntries: [
            { name: 'retention.ms', value: '604800000' },
            { name: 'max.message.bytes', value: '16777216' },
          ],
        },
      ],
    });
    expect(admin.fetchTopicOffsets.mock.calls).toEqual([['a.get'], ['s']]);
    expect(admin.describeGroups).toHaveBeenCalledWith(['svc-server']);
    expect(admin.disconnect).toHaveBeenCalled();
  });

  it('takes topics another app created first as created, and still waits until they are served', async () => {
    const admin = fakeAdmin([new KafkaJSAggregateError('Topic creation errors', [protocolError('TOPIC_ALREADY_EXISTS', false)])]);
    await ensureTopics('svc', connection, [requestTopic('a.get'), requestTopic('b.get')]);
    expect(admin.createTopics).toHaveBeenCalledTimes(1);
    expect(admin.fetchTopicOffsets).toHaveBeenCalledTimes(2);
  });

  it('retries while the broker is unreachable or not ready yet', async () => {
    const admin = fakeAdmin([new KafkaJSConnectionError('Connection error: ECONNREFUSED'), protocolError('NOT_CONTROLLER', true)]);
    await ensureTopics('svc', connection, [requestTopic('a.get')]);
    expect(admin.createTopics).toHaveBeenCalledTimes(3);
  });

  it('fails at once, naming the topics, when the broker refuses the settings', async () => {
    const admin = fakeAdmin([new KafkaJSAggregateError('Topic creation errors', [protocolError('INVALID_PARTITIONS', false)])]);
    await expect(ensureTopics('svc', connection, [requestTopic('a.get')])).rejects.toThrow(/could not create Kafka topics a\.get/);
    expect(admin.createTopics).toHaveBeenCalledTimes(1);
  });

  it('gives up once its deadline has passed', async () => {
    const admin = fakeAdmin(Array.from({ length: 50 }, () => new KafkaJSConnectionError('Connection error: ECONNREFUSED')));
    await expect(ensureTopics('svc', connection, [requestTopic('a.get')], { deadlineMs: 600 })).rejects.toThrow(/ECONNREFUSED/);
    expect(admin.createTopics.mock.calls.length).toBeLessThan(5);
  });
});
