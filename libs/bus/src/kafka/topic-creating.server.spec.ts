import { KafkaContext } from '@nestjs/microservices';
import { PATTERN_HEADER } from './kafka-topics';
import { TopicCreatingServerKafka } from './topic-creating.server';

/** A project's caller, as the gateway sends it: what prompt requests must hold (BUS_REQUEST_SHAPES). */
const CTX = '{"orgId":"org_1","apiKeyId":"key_1","requestId":"r1","projectId":"prj_1"}';

describe('TopicCreatingServerKafka', () => {
  const server = () =>
    new TopicCreatingServerKafka({ client: { clientId: 'svc', brokers: ['127.0.0.1:1'] } }, 'prompt-service', { brokers: ['127.0.0.1:1'], maxWaitTimeInMs: 500 });

  it("reads the service's one request topic", () => {
    expect(server().requestTopic).toBe('prompt-service.requests');
  });

  it('hands a record to the handler of the pattern its header names, and replies to the caller', async () => {
    const s = server();
    const seen: unknown[] = [];
    s.addHandler('prompt.prompts.get', async (data: unknown) => (seen.push(data), { slug: 'found' }), false);
    s.addHandler('prompt.prompts.list', async () => ({ data: [] }), false);
    const replies: Array<{ topic: string; messages: Array<{ value: string; headers: Record<string, string> }> }> = [];
    Object.assign(s, { producer: { send: async (m: (typeof replies)[number]) => (replies.push(m), []) } });
    await s.handleMessage({
      topic: 'prompt-service.requests',
      partition: 0,
      heartbeat: async () => undefined,
      pause: () => () => undefined,
      message: {
        key: null,
        value: Buffer.from(`{"ctx":${CTX},"slug":"s"}`),
        timestamp: '0',
        attributes: 0,
        offset: '0',
        headers: {
          [PATTERN_HEADER]: Buffer.from('prompt.prompts.get'),
          kafka_correlationId: Buffer.from('c-1'),
          kafka_replyTopic: Buffer.from('gateway.reply'),
          kafka_replyPartition: Buffer.from('2'),
        },
      },
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ ctx: JSON.parse(CTX) as unknown, slug: 's' }]);
    expect(replies).toHaveLength(1);
    expect(replies[0].topic).toBe('gateway.reply');
    expect(JSON.parse(replies[0].messages[0].value)).toEqual({ slug: 'found' });
  });

  it('answers a request holding a prototype-reaching key, or not of its shape, a validation error; its handler never runs', async () => {
    const s = server();
    const seen: unknown[] = [];
    s.addHandler('prompt.prompts.get', async (data: unknown) => (seen.push(data), { slug: 'found' }), false);
    const replies: Array<{ messages: Array<{ value: string; headers: Record<string, string> }> }> = [];
    Object.assign(s, { producer: { send: async (m: (typeof replies)[number]) => (replies.push(m), []) } });
    const request = (value: string, id: string) =>
      s.handleMessage({
        topic: 'prompt-service.requests',
        partition: 0,
        heartbeat: async () => undefined,
        pause: () => () => undefined,
        message: {
          key: null,
          value: Buffer.from(value),
          timestamp: '0',
          attributes: 0,
          offset: '0',
          headers: { [PATTERN_HEADER]: Buffer.from('prompt.prompts.get'), kafka_correlationId: Buffer.from(id), kafka_replyTopic: Buffer.from('gateway.reply') },
        },
      });
    await request(`{"ctx":${CTX},"id":"p","__proto__":{"isAdmin":true}}`, 'c-1');
    await request(`{"ctx":${CTX},"id":"p","page":{"constructor":{"prototype":{"isAdmin":true}}}}`, 'c-2');
    await request('{"id":"p"}', 'c-3');
    await request('{"ctx":', 'c-4');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([]);
    expect(replies.map((r) => String(r.messages[0].headers.kafka_correlationId))).toEqual(['c-1', 'c-2', 'c-3', 'c-4']);
    expect(replies.map((r) => JSON.parse(String(r.messages[0].headers['kafka_nest-err'])) as unknown)).toMatchObject([
      { code: 'validation_failed', errors: [{ path: 'request' }] },
      { code: 'validation_failed', errors: [{ path: 'request' }] },
      { code: 'validation_failed', errors: [{ path: 'ctx' }] },
      { code: 'validation_failed', errors: [{ path: 'request' }] },
    ]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  describe('commits', () => {
    /** A server with handlers for a read and a write, a producer that records, and a consumer that records its commits. */
    const withConsumer = (commit: (offsets: unknown) => Promise<void>) => {
      const s = server();
      const order: string[] = [];
      s.addHandler('prompt.prompts.get', async () => (order.push('handled'), { slug: 'found' }), false);
      s.addHandler('prompt.prompts.create', async () => (order.push('handled'), { slug: 'made' }), false);
      const commits: unknown[] = [];
      Object.assign(s, {
        producer: { send: async () => [] },
        consumer: { commitOffsets: async (offsets: unknown) => (order.push('committed'), commits.push(offsets), commit(offsets)) },
      });
      return { s, commits, order };
    };
    const record = (pattern: string, offset: string) => ({
      topic: 'prompt-service.requests',
      partition: 3,
      heartbeat: async () => undefined,
      pause: () => () => undefined,
      message: {
        key: null,
        value: Buffer.from(`{"ctx":${CTX}}`),
        timestamp: '0',
        attributes: 0,
        offset,
        headers: { [PATTERN_HEADER]: Buffer.from(pattern), kafka_correlationId: Buffer.from('c-1'), kafka_replyTopic: Buffer.from('gateway.reply') },
      },
    });

    it("commits a request that may write before the partition's next record: read again after a restart, it would run twice", async () => {
      const { s, commits, order } = withConsumer(async () => undefined);
      await s.handleMessage(record('prompt.prompts.create', '41'));
      expect(order).toEqual(['handled', 'committed']);
      expect(commits).toEqual([[{ topic: 'prompt-service.requests', partition: 3, offset: '42' }]]);
    });

    it('leaves a read to the periodic commit: answering it again changes nothing', async () => {
      const { s, commits, order } = withConsumer(async () => undefined);
      await s.handleMessage(record('prompt.prompts.get', '7'));
      expect(order).toEqual(['handled']);
      expect(commits).toEqual([]);
    });

    it('a failed commit does not fail the record (which would run the write again)', async () => {
      const { s, commits } = withConsumer(async () => Promise.reject(new Error('The coordinator is not available')));
      await expect(s.handleMessage(record('prompt.prompts.create', '9'))).resolves.not.toThrow();
      expect(commits).toHaveLength(1);
    });
  });

  it('logs a reply it cannot send instead of rejecting (which would crash the service as unhandled)', async () => {
    const server = new TopicCreatingServerKafka({ client: { clientId: 'svc', brokers: ['127.0.0.1:1'] } }, 'svc', {
      brokers: ['127.0.0.1:1'],
      maxWaitTimeInMs: 500,
    });
    Object.assign(server, { producer: { send: async () => Promise.reject(new Error('This server is not the leader for that topic-partition')) } });
    const sent = server.sendMessage({ id: 'c-1', response: { ok: true } }, 'gateway.reply', '0', 'c-1', {} as KafkaContext);
    await expect(sent).resolves.toEqual([]);
  });
});
