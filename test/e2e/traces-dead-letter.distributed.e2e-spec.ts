import { Broker, Stack, aProject, startBroker, startStack, testKafka, unique } from '@cinetrace/testing';
import type { Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { STACK_HOOK_TIMEOUT_MS } from './support/stack-hooks';
import { Answer } from './support/api-types';

const TRACES = '/api/v1/traces';

// Only the distributed mode has a stream that something other than the gateway can write
// to (in the all-in-one mode every record is validated in the same process), so jest runs
// `*.distributed.e2e-spec.ts` in that mode alone (jest.config.js).
describe('Trace stream poison records (distributed)', () => {
  let broker: Broker;
  let stack: Stack;
  let kafka: Kafka;

  beforeAll(async () => {
    broker = await startBroker();
    stack = await startStack('distributed', { kafkaBrokers: broker.brokers });
    kafka = testKafka(unique('e2e-poison'), broker.env);
  }, STACK_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.stop();
    await broker?.remove();
  }, STACK_HOOK_TIMEOUT_MS);

  it('sets a record it cannot store aside on the dead-letter topic and goes on with its partition', async () => {
    const project = (await stack.api().post<Answer<'createProject', 201>>('/api/v1/projects', aProject())).body;
    const api = stack.api().withProjectKey(project.key);
    const traceId = unique('poisoned').replace(/[^A-Za-z0-9._:-]/g, '-');
    const key = `${project.id}/${traceId}`;

    // A record with the trace's own key (so, its partition) that is JSON but no trace.
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: 'trace.ingest', acks: -1, messages: [{ key, value: JSON.stringify({ not: 'a trace' }) }] });
    await producer.disconnect();

    // The trace sent after it on the same partition is stored all the same.
    const sent = await api.post(TRACES, { id: traceId, spans: [{ id: 's', name: 'render', startTime: Date.now() }] });
    expect(sent.status).toBe(202);
    const deadline = Date.now() + 60_000;
    let read = await api.get<Answer<'getTrace'>>(`${TRACES}/${traceId}`);
    while (read.status !== 200 && Date.now() < deadline) {
      await sleep(250);
      read = await api.get<Answer<'getTrace'>>(`${TRACES}/${traceId}`);
    }
    expect(read.status).toBe(200);
    expect(read.body.spanCount).toBe(1);

    // And the poison record is on the dead-letter topic, with the reason.
    const consumer = kafka.consumer({ groupId: unique('e2e-dead-letters') });
    const dead: { key: string; reason: string }[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: 'trace.ingest.dead-letter', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        dead.push({ key: message.key?.toString() ?? '', reason: message.headers?.['x-dead-letter-reason']?.toString() ?? '' });
      },
    });
    const until = Date.now() + 30_000;
    while (!dead.some((d) => d.key === key) && Date.now() < until) await sleep(250);
    await consumer.disconnect();
    expect(dead.find((d) => d.key === key)?.reason).toMatch(/failed every attempt/);
  }, 120_000);
});
