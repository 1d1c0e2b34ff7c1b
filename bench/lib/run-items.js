'use strict';
// The dataset items of the run benchmark (bench/runs.js) and the jobs of its bare BullMQ
// baseline and floor (bench/baseline-bullmq.js, bench/baseline-runs-floor.js): the same
// items on every side, so all move the same bytes through Redis and score the same values.

const WORDS = ('slow dolly shot across a rain soaked neon street at night reflections shimmer on wet asphalt ' + 'cinematic lighting shallow depth of field film grain').split(' ');

function caption(i) {
  const words = [];
  for (let k = 0; k < 12; k++) words.push(WORDS[(i * 7 + k * 13) % WORDS.length]);
  return `shot ${i}: ${words.join(' ')}`;
}

/**
 * Item `i` of the dataset: its stored output (`metadata.output`, what the `dataset` target
 * answers) equals its `expected`, so an `exact_match` scorer on `caption` passes every item.
 */
function runItem(i) {
  const text = caption(i);
  return {
    input: { prompt: `A video of ${text}`, aspectRatio: '16:9', durationSeconds: 8 },
    expected: { caption: text },
    metadata: { output: { caption: text }, source: 'bench' },
  };
}

/** The benchmark's scorers: one `exact_match` on the output's caption. */
const RUN_SCORERS = [{ type: 'exact_match', config: { field: 'caption' } }];

/** A dot path into a value (`caption`, `video.durationSeconds`); undefined when absent. */
function atPath(value, path) {
  let v = value;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = v[key];
  }
  return v;
}

const asText = (v) => (typeof v === 'string' ? v : JSON.stringify(v ?? null));

/** exact_match as the service scores it: the field's text against the expected's, case-sensitive by default. */
function exactMatch(output, expected, config = {}) {
  const field = config.field;
  let a = asText(field ? atPath(output, field) : output);
  let b = asText(field && expected !== null && typeof expected === 'object' && atPath(expected, field) !== undefined ? atPath(expected, field) : expected);
  if (config.caseSensitive === false) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  const score = a === b ? 1 : 0;
  return { scorer: 'exact_match', score, passed: score >= (config.threshold ?? 1), details: null, error: null };
}

/** Job `i` of a run as benchmark-service enqueues it: what toTaskJob gives a worker, with its job options. */
function taskJob(runId, i, projectId = 'prj_bench') {
  const data = {
    taskId: `task_${runId}_${i}`,
    runId,
    benchmarkId: 'bm_bench',
    projectId,
    item: { id: `itm_${i}`, index: i, ...runItem(i) },
    target: { type: 'dataset' },
    prompt: null,
    scorers: RUN_SCORERS.map((s) => ({ name: s.type, ...s })),
    timeoutMs: 60000,
    maxAttempts: 3,
    traceId: `tr_${runId}_${i}`,
  };
  const opts = { jobId: data.taskId, attempts: 3, backoff: { type: 'exponential', delay: 500 }, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } };
  return { name: 'task', data, opts };
}

/** The work of one task: the dataset target's output, each scorer, a result. */
function processTask(task) {
  const startedAt = Date.now();
  const output = task.item.metadata.output;
  if (output === undefined) throw new Error('the item has no metadata.output');
  const scores = task.scorers.map((s) => ({ ...exactMatch(output, task.item.expected, s.config), scorer: s.name }));
  return { status: 'completed', output, scores, startedAt, finishedAt: Date.now() };
}

/** The worker settings both baselines share with benchmark-worker (lock and stall recovery). */
const WORKER_SETTINGS = { lockDuration: 10000, stalledInterval: 10000, maxStalledCount: 2, autorun: false };

module.exports = { runItem, RUN_SCORERS, exactMatch, atPath, taskJob, processTask, WORKER_SETTINGS };
