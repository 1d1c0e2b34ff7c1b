import { expect } from '@jest/globals';
import { e2eMode } from '@cinetrace/testing';
import { allTasks, benchmarkOn, runEnds, startOk } from './support/benchmarks';
import { DEEP_ANSWER_LEVELS, ModelEndpoints } from './support/model-endpoints';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { readEventually } from './support/traces';

jest.setTimeout(120_000);

describe(`A target answer too deep to record (${e2eMode()})`, () => {
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());

  it(`fails the task for good with a clear error, and its traceId answers the failed attempt (${DEEP_ANSWER_LEVELS} levels)`, async () => {
    const { api } = await inNewProject(ctx.api);
    const { benchmarkId } = await benchmarkOn(api, [{ input: { prompt: 'deep' }, expected: 'x' }], {
      target: { type: 'http', url: `${endpoints.baseUrl}/target/deep` },
      scorers: [{ type: 'exact_match' }],
      runner: { maxAttempts: 3 },
    });
    const runId = await startOk(api, benchmarkId);
    const run = await runEnds(api, benchmarkId, runId, 60_000);
    expect(run).toMatchObject({ status: 'failed', counts: { total: 1, failed: 1 } });

    const [task] = await allTasks(api, benchmarkId, runId);
    const error = "the target's output nests deeper than 32 levels";
    expect(task).toMatchObject({ status: 'failed', attempts: 1, error, traceId: expect.any(String) });
    expect(endpoints.sentTo('/target/deep')).toHaveLength(1);

    const trace = await readEventually(api, task.traceId!);
    expect(trace).toMatchObject({ id: task.traceId, status: 'error', metadata: { benchmarkId, runId, taskId: task.id, attempt: 1 } });
    expect(trace.spans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'attempt 1', status: 'error', statusMessage: error }),
        expect.objectContaining({ name: 'target http', status: 'error', statusMessage: error }),
      ]),
    );
  });
});
