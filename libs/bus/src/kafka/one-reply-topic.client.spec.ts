import { KafkaHeaders } from '@nestjs/microservices';
import { JsonText } from '../json-text';
import { PATTERN_HEADER } from './kafka-topics';
import { OneReplyTopicClientKafka } from './one-reply-topic.client';

describe('OneReplyTopicClientKafka', () => {
  const client = () => new OneReplyTopicClientKafka({ client: { clientId: 'gateway', brokers: ['127.0.0.1:1'] } }, 'gateway.reply');

  it('subscribes to one reply topic however many patterns it sends', () => {
    const c = client();
    for (const pattern of ['project.auth.resolve', 'trace.traces.get', 'prompt.prompts.list']) c.subscribeToResponseOf(pattern);
    expect((c as unknown as { responsePatterns: string[] }).responsePatterns).toEqual(['gateway.reply']);
  });

  it("sends each request to its service's request topic, naming the pattern in a header", async () => {
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

  describe('a reply', () => {
    const answer = async (headers: Record<string, Buffer>, value: Buffer | null) => {
      const c = client();
      const packets: unknown[] = [];
      c['routingMap'].set('corr-1', (packet: unknown) => void packets.push(packet));
      const message = { headers: { [KafkaHeaders.CORRELATION_ID]: Buffer.from('corr-1'), ...headers }, value };
      await c.createResponseCallback()({ topic: 'gateway.reply', partition: 0, message } as never);
      return packets;
    };

    it('is handed over as the JSON text it came as, not parsed', async () => {
      const [packet] = (await answer({ [KafkaHeaders.NEST_IS_DISPOSED]: Buffer.alloc(1) }, Buffer.from('{"id":"t1"}'))) as Array<{
        response: JsonText;
        isDisposed: boolean;
      }>;
      expect(packet.response).toBeInstanceOf(JsonText);
      expect(String(packet.response.json)).toBe('{"id":"t1"}');
      expect(packet.response.value()).toEqual({ id: 't1' });
      expect(packet.isDisposed).toBe(true);
    });

    it('carrying an error passes the parsed error on and ends the request', async () => {
      const err = { code: 'not_found', detail: 'No trace' };
      expect(await answer({ [KafkaHeaders.NEST_ERR]: Buffer.from(JSON.stringify(err)) }, Buffer.from('null'))).toEqual([{ err, isDisposed: true }]);
    });

    it('for a request this client no longer waits for is dropped', async () => {
      const c = client();
      const message = { headers: { [KafkaHeaders.CORRELATION_ID]: Buffer.from('gone') }, value: Buffer.from('{}') };
      await expect(c.createResponseCallback()({ topic: 'gateway.reply', partition: 0, message } as never)).resolves.toBeUndefined();
    });
  });
});
