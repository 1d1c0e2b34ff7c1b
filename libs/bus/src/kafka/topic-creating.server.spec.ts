import { KafkaContext } from '@nestjs/microservices';
import { TopicCreatingServerKafka } from './topic-creating.server';

describe('TopicCreatingServerKafka', () => {
  it('logs a reply it cannot send instead of rejecting (which would crash the service as unhandled)', async () => {
    const server = new TopicCreatingServerKafka({ client: { clientId: 'svc', brokers: ['127.0.0.1:1'] } }, 'svc', {
      brokers: ['127.0.0.1:1'],
      maxWaitTimeInMs: 500,
    });
    Object.assign(server, { producer: { send: async () => Promise.reject(new Error('This server is not the leader for that topic-partition')) } });
    const sent = server.sendMessage({ response: { ok: true } }, 'gateway.reply', '0', 'c-1', {} as KafkaContext);
    await expect(sent).resolves.toEqual([]);
  });
});
