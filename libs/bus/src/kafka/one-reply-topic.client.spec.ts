import { KafkaHeaders } from '@nestjs/microservices';
import { PATTERN_HEADER } from './kafka-topics';
import { OneReplyTopicClientKafka } from './one-reply-topic.client';

describe('OneReplyTopicClientKafka', () => {
  const client = () => new OneReplyTopicClientKafka({ client: { clientId: 'gateway', brokers: ['127.0.0.1:1'] } }, 'gateway.reply');

  it('subscribes to one reply topic however many patterns it sends', () => {
    const c = client();
    for (const pattern of ['project.auth.resolve', 'trace.traces.get', 'prompt.prompts.list']) c.subscribeToResponseOf(pattern);
    expect((c as unknown as { responsePatterns: string[] }).responsePatterns).toEqual(['gateway.reply']);
  });

  it('sends each request to its service\'s request topic, naming the pattern in a header', async () => {
    const c = client();
    const sent: Array<{ topic: string; messages: Array<{ headers: Record<string, unknown>; value: string }> }> = [];
    Object.assign(c, {
      consumerAssignments: { 'gateway.reply': 0 },
      _producer: { send: async (message: (typeof sent)[number]) => void sent.push(message) },
    });
    c['publish']({ pattern: 'prompt.prompts.get', data: { slug: 's' } }, () => undefined);
    c['publish']({ pattern: 'project.auth.resolve', data: { key: 'k' } }, () => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((m) => [m.topic, m.messages[0].headers[PATTERN_HEADER], m.messages[0].value])).toEqual([
      ['prompt-service.requests', 'prompt.prompts.get', '{"slug":"s"}'],
      ['project-service.requests', 'project.auth.resolve', '{"key":"k"}'],
    ]);
  });

  it('answers a request for a pattern no service answers with an error at once', () => {
    const c = client();
    Object.assign(c, { consumerAssignments: { 'gateway.reply': 0 }, _producer: { send: async () => undefined } });
    const answers: unknown[] = [];
    c['publish']({ pattern: 'nobody.answers', data: {} }, (packet) => void answers.push(packet.err));
    expect(String(answers[0])).toMatch(/no service answers the pattern 'nobody.answers'/);
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
    expect(sent[0].topic).toBe('trace-ingest.requests');
    expect(sent[0].messages[0].headers[KafkaHeaders.REPLY_TOPIC]).toBe('gateway.reply');
    expect(sent[0].messages[0].headers[KafkaHeaders.REPLY_PARTITION]).toBe('3');
  });
});
