import { Api, ApiResponse, Query, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
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

/** `count` items whose stored output matches `expected` for the even ones only. */
export function captionItems(count: number, tag = unique('clip')): Json[] {
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
  const created = await api.post(BENCHMARKS, aBenchmark(dataset.id, overrides));
  if (created.status !== 201) throw new Error(`benchmark create answered ${created.status}: ${created.text}`);
  return { datasetId: dataset.id, benchmarkId: created.body.id };
}

export const start = (api: Api, benchmarkId: string, body?: Json, headers: Record<string, string> = {}): Promise<ApiResponse> =>
  api.post(`${benchmarkPath(benchmarkId)}/start`, body, { headers });

/** Starts a run and fails loudly unless it answers 202; gives the run's id. */
export async function startOk(api: Api, benchmarkId: string, body?: Json): Promise<string> {
  const response = await start(api, benchmarkId, body);
  if (response.status !== 202) throw new Error(`start answered ${response.status}: ${response.text}`);
  return response.body.id;
}

export const tasksOf = (api: Api, benchmarkId: string, query: Query = {}): Promise<ApiResponse> => api.get(`${benchmarkPath(benchmarkId)}/tasks`, query);

/** Every task of the run, in dataset order. */
export async function allTasks(api: Api, benchmarkId: string, runId: string): Promise<Json[]> {
  return (await pageThrough<Json>(api, `${benchmarkPath(benchmarkId)}/tasks`, { runId, limit: 200 })).items as Json[];
}

export async function runOf(api: Api, benchmarkId: string, runId: string): Promise<Json> {
  const runs = (await pageThrough<Json>(api, `${benchmarkPath(benchmarkId)}/runs`, { limit: 200 })).items as Json[];
  const run = runs.find((r) => r.id === runId);
  if (!run) throw new Error(`run ${runId} is not in the runs of ${benchmarkId}`);
  return run;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Polls the tasks route until the run has ended; gives the run as the runs route shows it. */
export async function runEnds(api: Api, benchmarkId: string, runId: string, timeoutMs = 60_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const response = await tasksOf(api, benchmarkId, { runId, limit: 1 });
    last = `${response.status} ${response.text.slice(0, 300)}`;
    if (response.status === 200 && ENDED.has(response.body.summary?.status)) return runOf(api, benchmarkId, runId);
    await sleep(100);
  }
  throw new Error(`run ${runId} did not end within ${timeoutMs} ms (last: ${last})`);
}

/** Polls until `check` holds for the run's summary. */
export async function summaryWhen(api: Api, benchmarkId: string, runId: string, check: (summary: Json) => boolean, timeoutMs = 30_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  let last: Json | undefined;
  while (Date.now() < deadline) {
    const response = await tasksOf(api, benchmarkId, { runId, limit: 1 });
    last = response.body?.summary;
    if (response.status === 200 && last && check(last)) return last;
    await sleep(100);
  }
  throw new Error(`run ${runId}: summary never matched (last: ${JSON.stringify(last)})`);
}
