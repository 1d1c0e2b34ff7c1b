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
    /**
     * A server with handlers for a read and a write that end when `release` is called, a
     * producer that records, and a consumer that records its commits.
     */
    const withConsumer = (commit: (offsets: unknown) => Promise<void>) => {
      const s = server();
      const order: string[] = [];
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      s.addHandler('prompt.prompts.get', async () => (await released, order.push('handled'), { slug: 'found' }), false);
      s.addHandler('prompt.prompts.create', async () => (await released, order.push('handled'), { slug: 'made' }), false);
      const commits: unknown[] = [];
      Object.assign(s, {
        producer: { send: async () => (order.push('replied'), []), disconnect: async () => undefined },
        consumer: { commitOffsets: async (offsets: unknown) => (order.push('committed'), commits.push(offsets), commit(offsets)), disconnect: async () => undefined },
      });
      return { s, commits, order, release };
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

    it("commits a request that may write once taken, before the partition's next record, without waiting for its answer: read again after a restart, it would run twice", async () => {
      const { s, commits, order, release } = withConsumer(async () => undefined);
      await s.getMessageHandler()(record('prompt.prompts.create', '41'));
      expect(order).toEqual(['committed']);
      expect(commits).toEqual([[{ topic: 'prompt-service.requests', partition: 3, offset: '42' }]]);
      expect(s.requestsInFlight).toBe(1);
      release();
      await s.close();
      expect(order).toEqual(['committed', 'handled', 'replied']);
      expect(s.requestsInFlight).toBe(0);
    });

    it('leaves a read to the periodic commit of what kafkajs resolved: answering it again changes nothing', async () => {
      const { s, commits, order, release } = withConsumer(async () => undefined);
      await s.getMessageHandler()(record('prompt.prompts.get', '7'));
      release();
      await s.close();
      expect(order).toEqual(['handled', 'replied']);
      expect(commits).toEqual([]);
    });

    it('a failed commit does not fail the record (which would run the write again)', async () => {
      const { s, commits, release } = withConsumer(async () => Promise.reject(new Error('The coordinator is not available')));
      await expect(s.getMessageHandler()(record('prompt.prompts.create', '9'))).resolves.toBeUndefined();
      expect(commits).toHaveLength(1);
      release();
      await s.close();
    });

    it('closing waits for the requests in hand to be answered before the producer closes', async () => {
      const { s, order, release } = withConsumer(async () => undefined);
      const producer = (s as unknown as { producer: { send: unknown; disconnect?: () => Promise<void> } }).producer;
      producer.disconnect = async () => void order.push('producer closed');
      await s.getMessageHandler()(record('prompt.prompts.get', '1'));
      const closed = s.close();
      await new Promise((resolve) => setImmediate(resolve));
      expect(order).toEqual([]);
      release();
      await closed;
      expect(order).toEqual(['handled', 'replied', 'producer closed']);
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
