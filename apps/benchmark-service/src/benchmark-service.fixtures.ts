import type { BusClient } from '@cinetrace/bus';
import type { CreateDatasetInput, DatasetItemInput, TaskJob } from '@cinetrace/contracts';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { QueueSurvey, TaskQueue } from './execution/task-queue';
import { FactRelay } from './facts/fact-relay';
import type { DataSource } from 'typeorm';

// Collaborators and inputs for the specs of benchmark-service's services (which run on real stores).

/** benchmark-service's environment as validated, with the defaults unless overridden. */
export function aBenchmarkServiceEnv(overrides: Partial<BenchmarkServiceEnv> = {}): BenchmarkServiceEnv {
  return Object.assign(new BenchmarkServiceEnv(), overrides);
}

/** A durable task queue that only remembers what it was handed and told to cancel. */
export class RecordingTaskQueue extends TaskQueue {
  readonly durable = true;
  readonly enqueued: string[] = [];
  readonly cancelled: Array<{ runId: string; taskIds: string[] }> = [];
  async enqueue(jobs: TaskJob[]): Promise<void> {
    this.enqueued.push(...jobs.map((job) => job.taskId));
  }
  async cancel(runId: string, taskIds: string[]): Promise<void> {
    this.cancelled.push({ runId, taskIds });
  }
  async survey(): Promise<QueueSurvey> {
    return { lost: [], stalled: false };
  }
  async isReachable(): Promise<boolean> {
    return true;
  }
  async close(): Promise<void> {}
}

/** The bus as a service sees it: each pattern answered by `answers`, each request remembered. */
export function aFakeBus(answers: Record<string, (request: unknown) => unknown> = {}) {
  const requests: Array<{ pattern: string; request: unknown }> = [];
  const bus = {
    request: async (pattern: string, request: unknown) => {
      requests.push({ pattern, request });
      const answer = answers[pattern];
      if (!answer) throw new Error(`the fake bus has no answer for ${pattern}`);
      return answer(request);
    },
  };
  return { bus: bus as unknown as BusClient, requests };
}

/** `count` items with a caption each, numbered from `from`. */
export function captionItems(count: number, from = 0): DatasetItemInput[] {
  return Array.from({ length: count }, (_, i) => ({ input: { prompt: `clip ${from + i}` }, expected: `caption ${from + i}` }));
}

export function aDatasetInput(overrides: Partial<CreateDatasetInput> = {}): CreateDatasetInput {
  return { name: 'Captions', items: captionItems(3), ...overrides };
}

/** A valid benchmark body: the dataset's expected values as outputs, scored by exact match. */
export function aBenchmarkInput(datasetId: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'Nightly captions', datasetId, target: { type: 'dataset' }, scorers: [{ type: 'exact_match' }], runner: { concurrency: 2 }, ...overrides };
}

/** The relay of facts to prompt-service and project-service, never started: a spec sends its batches itself (sendBatch). */
export const anIdleFactRelay = (dataSource: DataSource, bus: BusClient = aFakeBus().bus): FactRelay => new FactRelay(dataSource, bus);

/** Sends every fact waiting, batch after batch. */
export async function sendAllFacts(relay: FactRelay): Promise<void> {
  while (await relay.sendBatch());
}
