import { expect } from '@jest/globals';
import { aProject, api } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { allTasks, benchmarkOn, captionItems, runEnds, startOk, summaryWhen } from './support/benchmarks';
import { groupsSettled } from './support/kafka-groups';
import { ModelEndpoints } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { SteadyIngest, expectAcceptedStored } from './support/steady-ingest';
import { Answer } from './support/api-types';

jest.setTimeout(300_000);

// Replicas of one app share its topics' partitions in one consumer group. When one dies
// (SIGKILL: it never says goodbye), the group rebalances after the session timeout and
// the survivor takes its partitions from the last committed offsets.
describe('Two trace-ingest replicas, one SIGKILLed under load (distributed)', () => {
  // Its own stack: the test kills a replica.
  const ctx = useStack({ own: true, replicas: { 'trace-ingest': 2 } });

  it('stores every accepted trace, each span once, through the survivor', async () => {
    await groupsSettled(ctx.stack, ['trace-ingest'], 2);
    const { api, projectId } = await inNewProject(ctx.api);
    const ingest = new SteadyIngest(api, { clients: 4 }).start();
    await ingest.acceptedMore(100);
    await ctx.stack.killApp('trace-ingest-2', 'SIGKILL');
    await ingest.acceptedMore(100);
    const attempts = await ingest.stop();

    // The gateway never depended on trace-ingest: every POST was accepted.
    expect(attempts.filter((a) => a.status !== 202)).toEqual([]);
    await expectAcceptedStored(ctx.stack, projectId, ingest.accepted);
  });
});

describe('Two benchmark-service replicas, one SIGKILLed mid-run (distributed)', () => {
  // Its own stack: the test kills a replica.
  const ctx = useStack({ own: true, env: { OUTBOUND_ALLOW_PRIVATE: 'true' }, replicas: { 'benchmark-service': 2 } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  it('finishes the run with every task counted once', async () => {
    // Both replicas share the requests (Nest's `-server` group) and the task events.
    await groupsSettled(ctx.stack, ['benchmark-service-server', 'benchmark-service'], 2);
    const { api } = await inNewProject(ctx.api);
    const items = captionItems(30);
    const { benchmarkId } = await benchmarkOn(api, items, {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/steady` },
      scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
      runner: { concurrency: 2, maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    await summaryWhen(api, benchmarkId, runId, (s) => s.counts.completed >= 4 && s.counts.running > 0);
    await ctx.stack.killApp('benchmark-service-2', 'SIGKILL');

    const run = await runEnds(api, benchmarkId, runId, 180_000);
    expect(run).toMatchObject({ status: 'completed', counts: { total: 30, completed: 30, failed: 0, cancelled: 0, pending: 0, running: 0 } });
    const tasks = await allTasks(api, benchmarkId, runId);
    expect(tasks.map((t) => t.itemIndex)).toEqual([...Array(30).keys()]);
    for (const task of tasks) expect(task).toMatchObject({ status: 'completed', error: null, scores: [expect.objectContaining({ score: 1 })] });
  });
});

describe('Two gateway replicas answering request-reply at once (distributed)', () => {
  const ctx = useStack({ replicas: { gateway: 2 } });

  it('gives each replica the replies to its own requests', async () => {
    await groupsSettled(ctx.stack, ['gateway-client'], 2);
    const [a, b] = ctx.stack.edgeUrls.map((url) => api(url, ctx.stack.apiKey));
    // Each replica creates projects and reads back the ones both created, 40 requests at a time.
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).post<Answer<'createProject', 201>>('/api/v1/projects', aProject({ name: `Replica project ${i}` }))),
    );
    expect(created.map((r) => r.status)).toEqual(Array<number>(20).fill(201));
    for (let round = 0; round < 3; round += 1) {
      const reads = await Promise.all(
        created.flatMap((c) => [a, b].map(async (edge) => ({ id: c.body.id, name: c.body.name, response: await edge.get<Answer<'getProject'>>(`/api/v1/projects/${c.body.id}`) }))),
      );
      for (const { id, name, response } of reads) {
        expect({ status: response.status, id: response.body.id, name: response.body.name }).toEqual({ status: 200, id, name });
      }
      await sleep(100);
    }
  });
});
