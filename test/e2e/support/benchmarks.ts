import { Api, ApiResponse, Query, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { Answer, Schema } from './api-types';
import { appendOk, createDataset, Json } from './datasets';
import { pageThrough } from './lists';

export const BENCHMARKS = '/api/v1/benchmarks';
export const benchmarkPath = (id: string): string => `${BENCHMARKS}/${encodeURIComponent(id)}`;

/** A valid benchmark body on `datasetId`: the dataset's own outputs, scored by exact match on the caption. */
export function aBenchmark(datasetId: string, overrides: Json = {}): Json {
  return {
    name: unique('Captions'),
    datasetId,
    target: { type: 'dataset' },
    scorers: [{ type: 'exact_match', config: { field: 'caption' } }],
    ...overrides,
  };
}

/** An item of captionItems: its stored output is what a dataset target answers. */
export type CaptionItem = { input: { prompt: string }; expected: { caption: string }; metadata: { output: { caption: string } } };

/** `count` items whose stored output matches `expected` for the even ones only. */
export function captionItems(count: number, tag = unique('clip')): CaptionItem[] {
  return Array.from({ length: count }, (_, i) => ({
    input: { prompt: `${tag} shot ${i}` },
    expected: { caption: `${tag} shot ${i}` },
    metadata: { output: { caption: i % 2 === 0 ? `${tag} shot ${i}` : 'something else' } },
  }));
}

/** A dataset holding `items` and a benchmark on it; gives both ids. */
export async function benchmarkOn(api: Api, items: Json[], overrides: Json = {}): Promise<{ datasetId: string; benchmarkId: string }> {
  const dataset = await createDataset(api);
  if (items.length) await appendOk(api, dataset.id, items);
  const created = await api.post<Schema<'BenchmarkView'>>(BENCHMARKS, aBenchmark(dataset.id, overrides));
  if (created.status !== 201) throw new Error(`benchmark create answered ${created.status}: ${created.text}`);
  return { datasetId: dataset.id, benchmarkId: created.body.id };
}

/** POST …/start; `T` is what the caller expects back. */
export const start = <T = unknown>(api: Api, benchmarkId: string, body?: Json, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
  api.post<T>(`${benchmarkPath(benchmarkId)}/start`, body, { headers });

/** Starts a run and fails loudly unless it answers 202; gives the run's id. */
export async function startOk(api: Api, benchmarkId: string, body?: Json): Promise<string> {
  const response = await start<Schema<'RunStartedView'>>(api, benchmarkId, body);
  if (response.status !== 202) throw new Error(`start answered ${response.status}: ${response.text}`);
  return response.body.id;
}

/**
 * A benchmark as the tests read it: the document leaves its target's and scorers' fields open
 * (they depend on the type), typed here as the JSON they are.
 */
export type BenchmarkView = Omit<Schema<'BenchmarkView'>, 'target' | 'scorers'> & {
  target: { type: string; [field: string]: unknown };
  scorers: Array<{ name: string; type: string; config: Record<string, unknown> }>;
};

/** A page of a run's tasks, with the run's summary. */
export type TasksPage = Answer<'listBenchmarkTasks'>;
export type TaskView = Schema<'TaskView'>;
export type RunView = Schema<'RunView'>;
export type RunSummary = Schema<'RunSummaryView'>;

export const tasksOf = (api: Api, benchmarkId: string, query: Query = {}): Promise<ApiResponse<TasksPage>> => api.get<TasksPage>(`${benchmarkPath(benchmarkId)}/tasks`, query);

/** Every task of the run, in dataset order. */
export async function allTasks(api: Api, benchmarkId: string, runId: string): Promise<TaskView[]> {
  return (await pageThrough<TaskView>(api, `${benchmarkPath(benchmarkId)}/tasks`, { runId, limit: 200 })).items;
}

export async function runOf(api: Api, benchmarkId: string, runId: string): Promise<RunView> {
  const runs = (await pageThrough<RunView>(api, `${benchmarkPath(benchmarkId)}/runs`, { limit: 200 })).items;
  const run = runs.find((r) => r.id === runId);
  if (!run) throw new Error(`run ${runId} is not in the runs of ${benchmarkId}`);
  return run;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Polls the tasks route until the run has ended; gives the run as the runs route shows it. */
export async function runEnds(api: Api, benchmarkId: string, runId: string, timeoutMs = 60_000): Promise<RunView> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const response = await tasksOf(api, benchmarkId, { runId, limit: 1 });
    last = `${response.status} ${response.text.slice(0, 300)}`;
    if (response.status === 200 && ENDED.has(response.body.summary?.status ?? '')) return runOf(api, benchmarkId, runId);
    await sleep(100);
  }
  throw new Error(`run ${runId} did not end within ${timeoutMs} ms (last: ${last})`);
}

/** Polls until `check` holds for the run's summary. */
export async function summaryWhen(api: Api, benchmarkId: string, runId: string, check: (summary: RunSummary) => boolean, timeoutMs = 30_000): Promise<RunSummary> {
  const deadline = Date.now() + timeoutMs;
  let last: RunSummary | null | undefined;
  while (Date.now() < deadline) {
    const response = await tasksOf(api, benchmarkId, { runId, limit: 1 });
    last = response.body?.summary;
    if (response.status === 200 && last && check(last)) return last;
    await sleep(100);
  }
  throw new Error(`run ${runId}: summary never matched (last: ${JSON.stringify(last)})`);
}
