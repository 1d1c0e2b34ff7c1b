import { expect } from '@jest/globals';
import { Broker, Stack, startBroker, startStack, testKafka, unique } from '@cinetrace/testing';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk } from './support/benchmarks';
import { ModelEndpoints } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { STACK_HOOK_TIMEOUT_MS } from './support/stack-hooks';
import { Answer } from './support/api-types';

jest.setTimeout(120_000);

// Only the distributed mode has a log of the bus that outlives the request: Kafka keeps every
// record, so jest runs `*.distributed.e2e-spec.ts` in that mode alone (jest.config.js).
describe('Secret values on the bus (distributed)', () => {
  let broker: Broker;
  let stack: Stack;
  const endpoints = new ModelEndpoints();

  beforeAll(async () => {
    await endpoints.start();
    broker = await startBroker();
    stack = await startStack('distributed', { kafkaBrokers: broker.brokers, env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  }, STACK_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.stop();
    await broker?.stop();
    await endpoints.stop();
  }, STACK_HOOK_TIMEOUT_MS);

  it('never puts a value in clear into Kafka: not as it is created or rotated, not as the worker gets it', async () => {
    const { api } = await inNewProject(stack.api());
    const first = `sk-on-the-bus-${randomBytes(12).toString('hex')}`;
    const second = `sk-rotated-on-the-bus-${randomBytes(12).toString('hex')}`;
    const created = await api.post<Answer<'createSecret', 201>>('/api/v1/secrets', { name: unique('BUS_KEY').replace(/[^A-Za-z0-9_.-]/g, '_'), value: first });
    expect(created.status).toBe(201);
    expect((await api.request('PUT', `/api/v1/secrets/${created.body.id}`, { json: { value: second } })).status).toBe(200);
    const { benchmarkId } = await benchmarkOn(api, captionItems(2), {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, apiKey: { secret: created.body.name } },
    });
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
    expect(run.status).toBe('completed');
    expect((await allTasks(api, benchmarkId, run.id)).every((t) => t.status === 'completed')).toBe(true);
    // The value did travel: the target got it.
    expect(endpoints.sentTo('/target/caption').map((r) => r.headers.authorization)).toEqual([`Bearer ${second}`, `Bearer ${second}`]);

    // Every record of every topic, from the beginning.
    const kafka = testKafka(unique('e2e-bus-reader'), broker.env);
    const admin = kafka.admin();
    await admin.connect();
    const topics = (await admin.listTopics()).filter((t) => !t.startsWith('__'));
    const offsets = await Promise.all(topics.map(async (topic) => ({ topic, end: (await admin.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high), 0) })));
    await admin.disconnect();
    expect(topics).toEqual(expect.arrayContaining(['project-service.requests', 'gateway.reply', 'benchmark-worker-client.reply']));
    const expected = offsets.reduce((n, o) => n + o.end, 0);

    const consumer = kafka.consumer({ groupId: unique('e2e-bus-reader') });
    const records: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void records.push(`${message.key?.toString('latin1') ?? ''} ${message.value?.toString('latin1') ?? ''}`) });
    const deadline = Date.now() + 30_000;
    while (records.length < expected && Date.now() < deadline) await sleep(100);
    await consumer.disconnect();

    expect(records.length).toBeGreaterThanOrEqual(expected);
    const log = records.join('\n');
    // The requests and replies are there (sealed), the values are not.
    expect(log).toContain('sealedValue');
    expect(log).toContain('"sealed"');
    for (const value of [first, second]) {
      expect(log).not.toContain(value);
      expect(log).not.toContain(Buffer.from(value).toString('base64'));
    }
  });
});
