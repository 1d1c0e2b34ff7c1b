import { expect } from '@jest/globals';
import { aProject, testKafka, unique } from '@cinetrace/testing';
import type { Consumer, IHeaders, Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';
import { readEventually } from './support/traces';

const TRACES = '/api/v1/traces';
/** trace-ingest scopes a trace by its project; the caller's organization is any string to it. */
const ORG = 'org_poison';
/** How a request names its pattern, and how Nest's Kafka transport names the reply's topic, correlation and error (libs/bus). */
const PATTERN_HEADER = 'cinetrace_pattern';
const TRACE_GET = 'trace.traces.get';

interface Reply {
  correlationId: string;
  error: { code: string; errors?: Array<{ path: string }> } | null;
  value: unknown;
}

const text = (headers: IHeaders | undefined, name: string): string | undefined => {
  const value = headers?.[name];
  return value === undefined ? undefined : String(Array.isArray(value) ? value[0] : value);
};

// Only the distributed mode has a bus that a process other than the apps can write to: any
// process that reaches the broker can publish a request or a stream record.
describe('Poisoned bus messages (distributed)', () => {
  const ctx = useStack();
  let kafka: Kafka;
  let replies: Consumer;
  const received: Reply[] = [];
  const replyTopic = unique('e2e-poison-replies').replace(/[^A-Za-z0-9._-]/g, '-');

  beforeAll(async () => {
    kafka = testKafka(unique('e2e-poison'), ctx.stack.kafkaEnv!);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: replyTopic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    replies = kafka.consumer({ groupId: unique('e2e-poison-replies') });
    await replies.connect();
    await replies.subscribe({ topic: replyTopic, fromBeginning: true });
    await replies.run({
      eachMessage: async ({ message }) => {
        const error = text(message.headers, 'kafka_nest-err');
        received.push({
          correlationId: text(message.headers, 'kafka_correlationId') ?? '',
          error: error ? (JSON.parse(error) as Reply['error']) : null,
          value: message.value?.length ? (JSON.parse(message.value.toString()) as unknown) : null,
        });
      },
    });
  }, 60_000);

  afterAll(async () => {
    await replies?.disconnect();
  });

  /** Publishes a request to trace-ingest as any process on the bus could, and waits for its reply. */
  async function request(value: string): Promise<Reply> {
    const correlationId = unique('poison');
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: 'trace-ingest.requests',
      acks: -1,
      messages: [{ value, headers: { [PATTERN_HEADER]: TRACE_GET, kafka_correlationId: correlationId, kafka_replyTopic: replyTopic, kafka_replyPartition: '0' } }],
    });
    await producer.disconnect();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const reply = received.find((r) => r.correlationId === correlationId);
      if (reply) return reply;
      await sleep(100);
    }
    throw new Error(`no reply to ${value}`);
  }

  it('answers a request holding a prototype key, or not of its shape, a validation error, and goes on answering', async () => {
    const project = (await ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', aProject())).body;
    const api = ctx.api.withProjectKey(project.key);
    const traceId = unique('tr-after-poison').replace(/[^A-Za-z0-9._:-]/g, '-');
    expect((await api.post(TRACES, { id: traceId, spans: [{ id: 's', name: 'render', startTime: Date.now() }] })).status).toBe(202);
    await readEventually(api, traceId);
    const caller = JSON.stringify({ orgId: ORG, apiKeyId: 'key_poison', requestId: 'poison', projectId: project.id });

    // A __proto__ inside the caller would make another project's id the prototype's, for a naive merge.
    const prototyped = await request(`{"ctx":{"orgId":"${ORG}","__proto__":{"projectId":"${project.id}"}},"id":"${traceId}"}`);
    expect(prototyped.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'request' }] });
    const constructed = await request(`{"ctx":${caller},"id":"${traceId}","x":{"constructor":{"prototype":{"isAdmin":true}}}}`);
    expect(constructed.error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'request' }] });
    // No caller at all, an id that is no string, a value that is not JSON.
    expect((await request(`{"id":"${traceId}"}`)).error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'ctx' }] });
    expect((await request(`{"ctx":${caller},"id":{"$ne":null}}`)).error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'id' }] });
    expect((await request('{"ctx":')).error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'request' }] });

    // The service is unharmed: a well-formed request on the bus, and the API, are answered as ever.
    const good = await request(`{"ctx":${caller},"id":"${traceId}"}`);
    expect(good.error).toBeNull();
    expect(good.value).toMatchObject({ id: traceId, spanCount: 1 });
    expect((await api.get<Answer<'getTrace'>>(`${TRACES}/${traceId}`)).status).toBe(200);
  }, 120_000);

  it('sets a stream record holding a prototype key aside on the dead-letter topic, and stores the next one', async () => {
    const project = (await ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', aProject())).body;
    const api = ctx.api.withProjectKey(project.key);
    const traceId = unique('poisoned-stream').replace(/[^A-Za-z0-9._:-]/g, '-');
    const key = `${project.id}/${traceId}`;
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: 'trace.ingest',
      acks: -1,
      messages: [{ key, value: `{"projectId":"${project.id}","trace":{"id":"${traceId}","__proto__":{"spans":[]}}}` }],
    });
    await producer.disconnect();

    const sent = await api.post(TRACES, { id: traceId, spans: [{ id: 's', name: 'render', startTime: Date.now() }] });
    expect(sent.status).toBe(202);
    expect((await readEventually(api, traceId, undefined, 60_000)).spanCount).toBe(1);

    const consumer = kafka.consumer({ groupId: unique('e2e-dead-letters') });
    const dead: Array<{ key: string; reason: string }> = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'trace.ingest.dead-letter', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        dead.push({ key: message.key?.toString() ?? '', reason: text(message.headers, 'x-dead-letter-reason') ?? '' });
      },
    });
    const until = Date.now() + 30_000;
    while (!dead.some((d) => d.key === key) && Date.now() < until) await sleep(250);
    await consumer.disconnect();
    expect(dead.find((d) => d.key === key)?.reason).toMatch(/prototype/);
  }, 120_000);
});
