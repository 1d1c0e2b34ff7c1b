import { expect } from '@jest/globals';
import type { EvaluationRunFact, EvaluationsRecordRequest } from '@cinetrace/contracts';
import { testKafka, unique } from '@cinetrace/testing';
import type { Consumer, Kafka } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchmarkOn, captionItems, runEnds, startOk } from './support/benchmarks';
import { expectProblem } from './support/expectations';
import { createPrompt, inNewProject, moveOnceRunIsTold, moveRelease, put } from './support/prompts';
import { useStack } from './support/stack-hooks';

/** How a request names its pattern, and how Nest's Kafka transport names the reply's topic and correlation (libs/bus). */
const PATTERN_HEADER = 'cinetrace_pattern';
const EVALUATIONS_RECORD = 'prompt.evaluations.record';

// benchmark-service tells prompt-service of each completed run of a prompt; a replica, or a
// crash between the send and the outbox row's delete, tells it again. Only the distributed mode
// has a bus a test can write to: a run told again, even with other scores, counts as first told.
describe('Evaluation facts told twice (distributed)', () => {
  const ctx = useStack();
  let kafka: Kafka;
  let replies: Consumer;
  const answered = new Set<string>();
  const replyTopic = unique('e2e-facts-replies').replace(/[^A-Za-z0-9._-]/g, '-');

  beforeAll(async () => {
    kafka = testKafka(unique('e2e-facts'), ctx.stack.kafkaEnv!);
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: replyTopic, numPartitions: 1 }], waitForLeaders: true });
    await admin.disconnect();
    replies = kafka.consumer({ groupId: unique('e2e-facts-replies') });
    await replies.connect();
    await replies.subscribe({ topic: replyTopic, fromBeginning: true });
    await replies.run({
      eachMessage: async ({ message }) => {
        if (message.headers?.['kafka_nest-err'] === undefined) answered.add(String(message.headers?.kafka_correlationId ?? ''));
      },
    });
  }, 60_000);

  afterAll(async () => {
    await replies?.disconnect();
  });

  /** Tells prompt-service as benchmark-service does, and waits for its answer. */
  async function tell(request: EvaluationsRecordRequest): Promise<void> {
    const correlationId = unique('facts');
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: 'prompt-service.requests',
      acks: -1,
      messages: [
        {
          value: JSON.stringify(request),
          headers: { [PATTERN_HEADER]: EVALUATIONS_RECORD, kafka_correlationId: correlationId, kafka_replyTopic: replyTopic, kafka_replyPartition: '0' },
        },
      ],
    });
    await producer.disconnect();
    const deadline = Date.now() + 30_000;
    while (!answered.has(correlationId)) {
      if (Date.now() > deadline) throw new Error('prompt-service did not take the facts');
      await sleep(100);
    }
  }

  it('counts a run told twice once, as first told: a copy with other scores passes no gate', async () => {
    const { api, projectId } = await inNewProject(ctx.api);
    const prompt = await createPrompt(api, { content: 'take 1 of {{subject}}' });
    await put(api, prompt.id, { content: 'take 2 of {{subject}}' });
    await moveRelease(api, prompt.id, 'staging', { version: 2 });
    // Half of the 4 items match: the run's mean is 0.5.
    const { benchmarkId, datasetId } = await benchmarkOn(api, captionItems(4), { target: { type: 'dataset', promptId: prompt.id, promptRelease: 'staging' } });
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
    expect([run.status, run.scores.exact_match.mean]).toEqual(['completed', 0.5]);
    const gate = { benchmarkId, thresholds: { exact_match: 0.75 } };
    expectProblem(await moveOnceRunIsTold(api, prompt.id, 'production', { version: 2, gate }, run.id), 409, 'gate_failed', ['gate.thresholds.exact_match']);

    const copy: EvaluationRunFact = {
      id: run.id,
      projectId,
      benchmarkId,
      promptId: prompt.id,
      promptVersion: 2,
      datasetId,
      datasetVersion: run.datasetVersion,
      items: 4,
      datasetItems: 4,
      finishedAt: Date.now(),
      scores: { exact_match: { mean: 1, passRate: 1 } },
    };
    await tell({ benchmarks: [], runs: [copy, copy] });

    const refused = await moveRelease(api, prompt.id, 'production', { version: 2, gate });
    expectProblem(refused, 409, 'gate_failed', ['gate.thresholds.exact_match']);
    expect(refused.body.detail).toContain(`run '${run.id}' of benchmark '${benchmarkId}' fell short (exact_match 0.5 < 0.75)`);
  });
});
