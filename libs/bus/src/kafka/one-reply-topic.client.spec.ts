import { KafkaHeaders } from '@nestjs/microservices';
import { OneReplyTopicClientKafka } from './one-reply-topic.client';

describe('OneReplyTopicClientKafka', () => {
  const client = () => new OneReplyTopicClientKafka({ client: { clientId: 'gateway', brokers: ['127.0.0.1:1'] } }, 'gateway.reply');

  it('subscribes to one reply topic however many patterns it sends', () => {
    const c = client();
    for (const pattern of ['project.auth.resolve', 'trace.traces.get', 'prompt.prompts.list']) c.subscribeToResponseOf(pattern);
    expect((c as unknown as { responsePatterns: string[] }).responsePatterns).toEqual(['gateway.reply']);
  });

  it('asks for every reply on that topic, at the partition its consumer was assigned', async () => {
    const c = client();
    c.subscribeToResponseOf('trace.traces.get');
    const sent: Array<{ topic: string; messages: Array<{ headers: Record<string, unknown> }> }> = [];
    Object.assign(c, {
      consumerAssignments: { 'gateway.reply': 3 },
      _producer: { send: async (message: (typeof sent)[number]) => void sent.push(message) },
    });
    c['publish']({ pattern: 'trace.traces.get', data: { id: 't' } }, () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    expect(sent[0].topic).toBe('trace.traces.get');
    expect(sent[0].messages[0].headers[KafkaHeaders.REPLY_TOPIC]).toBe('gateway.reply');
    expect(sent[0].messages[0].headers[KafkaHeaders.REPLY_PARTITION]).toBe('3');
  });
});
