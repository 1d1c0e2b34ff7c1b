'use strict';
// What counting annotation labels in run summaries costs (docs/api-reference.md, "Run
// summaries: annotation counts"), in one run mode:
//   1. --media small clips made here by ffmpeg, uploaded, probed, each with --labels
//      annotations (labels spread over 8 names);
//   2. two benchmarks of --tasks items on the `dataset` target: `plain` (caption outputs, no
//      media: its summary asks nobody) and `media` (each output names a distinct media id,
//      the real clips among them, the rest ids no media has, which cost media-service the
//      same index lookups);
//   3. each run timed from POST /start until the runs route shows it ended (the result path
//      writes run_media for the `media` run), then GET …/tasks?runId&limit=50 (the summary
//      with its counts) for --read-duration s from 2 clients, after 2 s of warm-up.
// Usage: node bench/annotation-counts.js [--mode all-in-one|distributed] [--tasks 10000] [--media 10] [--labels 20]
const { execFileSync } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const c = require('./lib/common');

const opts = c.parseArgs(process.argv.slice(2), { mode: 'all-in-one', tasks: 10000, media: 10, labels: 20, 'read-duration': 10, concurrency: 64 });
const LABELS = ['flicker', 'blur', 'black frames', 'freeze', 'artifact', 'wrong subject', 'jump cut', 'ok'];
const log = (...a) => console.error(...a);

async function call(target, method, urlPath, body, status, headers = {}) {
  const raw = Buffer.isBuffer(body);
  const r = await c.request(target.baseUrl, method, urlPath, {
    headers: { ...target.headers, ...headers },
    body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    timeoutMs: 60000,
  });
  if (r.status !== status && !(raw && r.status === 200)) throw new Error(`${method} ${urlPath}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.json();
}

/** `count` one-second clips of different colours (the same bytes twice would be one media). */
function makeClips(count) {
  const { resolveMediaTools } = require(path.join(c.ROOT, 'libs/media-tools/dist'));
  const ffmpeg = resolveMediaTools({ FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH }).ffmpeg.path;
  const dir = c.tempDir('cinetrace-bench-clips-');
  return Array.from({ length: count }, (_, i) => {
    const file = path.join(dir, `clip-${i}.mp4`);
    const colour = `0x${(((i + 1) * 0x2f4a6b) & 0xffffff).toString(16).padStart(6, '0')}`;
    execFileSync(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:size=64x48:rate=10:duration=1`, '-pix_fmt', 'yuv420p', '-y', file]);
    return readFileSync(file);
  });
}

async function annotatedMedia(target, clips) {
  const ids = [];
  for (const clip of clips) {
    const media = await call(target, 'POST', '/api/v1/media', clip, 201, { 'content-type': 'video/mp4' });
    for (let t = 0; ; t++) {
      const got = await call(target, 'GET', `/api/v1/media/${media.id}`, undefined, 200);
      if (got.status === 'ready') break;
      if (got.status === 'failed' || t > 300) throw new Error(`media ${media.id}: ${got.status} ${got.error}`);
      await c.sleep(100);
    }
    for (let k = 0; k < opts.labels; k++) await call(target, 'POST', `/api/v1/media/${media.id}/annotations`, { startMs: 0, endMs: 500, label: LABELS[k % LABELS.length] }, 201);
    ids.push(media.id);
  }
  return ids;
}

const TIMED_PATTERNS = ['benchmark.tasks.list', 'media.annotations.counts'];

/** The bus requests' summed seconds and counts so far, by pattern, from the gateway's /metrics (all-in-one: every app's). */
async function busSeconds(target) {
  const text = (await c.request(target.baseUrl, 'GET', '/metrics')).body;
  const out = {};
  for (const pattern of TIMED_PATTERNS) {
    const read = (kind) =>
      Number(
        new RegExp(`cinetrace_bus_request_duration_seconds_${kind}\\{[^}]*pattern="${pattern.replace(/\./g, '\\.')}"[^}]*outcome="ok"[^}]*\\} ([0-9.e+-]+)`).exec(text)?.[1] ?? 0,
      );
    out[pattern] = { sum: read('sum'), count: read('count') };
  }
  return out;
}

/** A media id no media has (the lower-case ULID alphabet), distinct per index. */
const fakeMediaId = (i) => `med_${'0'.repeat(16)}${i.toString(32).padStart(10, '0')}`;

async function benchmarkOf(target, name, outputOf) {
  const dataset = await call(target, 'POST', '/api/v1/datasets', { name: `${name} ${randomBytes(3).toString('hex')}` }, 201);
  for (let i = 0; i < opts.tasks; i += 1000) {
    const items = Array.from({ length: Math.min(1000, opts.tasks - i) }, (_, k) => ({ input: { prompt: `shot ${i + k}` }, metadata: { output: outputOf(i + k) } }));
    await call(target, 'POST', `/api/v1/datasets/${dataset.id}/items`, { items }, 201);
  }
  const scorers = [{ type: 'json_schema', config: { schema: { type: 'object' } } }];
  const benchmark = await call(
    target,
    'POST',
    '/api/v1/benchmarks',
    { name, datasetId: dataset.id, target: { type: 'dataset' }, scorers, runner: { concurrency: opts.concurrency } },
    201,
  );
  return benchmark.id;
}

async function timeRun(target, benchmarkId) {
  const t0 = performance.now();
  const run = await call(target, 'POST', `/api/v1/benchmarks/${benchmarkId}/start`, {}, 202);
  for (;;) {
    const page = await call(target, 'GET', `/api/v1/benchmarks/${benchmarkId}/runs?limit=1`, undefined, 200);
    const latest = page.data[0];
    if (latest?.id === run.id && ['completed', 'failed', 'cancelled'].includes(latest.status))
      return { runId: run.id, status: latest.status, seconds: (performance.now() - t0) / 1000 };
    await c.sleep(100);
  }
}

async function main() {
  const target = await c.startService(opts.mode, { log, env: { QUOTA_TASKS_PER_RUN: String(Math.max(10000, opts.tasks)) } });
  c.onCleanup(() => target.stop());
  try {
    log(`== ${opts.mode}: ${opts.media} annotated clips, ${opts.tasks} tasks per run`);
    const real = await annotatedMedia(target, makeClips(opts.media));
    const plain = await benchmarkOf(target, 'plain', (i) => ({ caption: `shot ${i}` }));
    const media = await benchmarkOf(target, 'media', (i) => ({ caption: `shot ${i}`, video: { mediaId: i < real.length ? real[i] : fakeMediaId(i) } }));
    const rows = [];
    for (const [name, benchmarkId] of [
      ['plain', plain],
      ['media', media],
    ]) {
      const run = await timeRun(target, benchmarkId);
      const url = `/api/v1/benchmarks/${benchmarkId}/tasks?runId=${run.runId}&limit=50`;
      const summary = (await call(target, 'GET', url, undefined, 200)).summary;
      const before = await busSeconds(target);
      const read = await c.measureLatency(() => c.request(target.baseUrl, 'GET', url, { headers: target.headers }), { durationMs: opts['read-duration'] * 1000, warmupMs: 2000 });
      const after = await busSeconds(target);
      read.bus = Object.fromEntries(Object.keys(after).map((p) => [p, ((after[p].sum - (before[p]?.sum ?? 0)) / Math.max(1, after[p].count - (before[p]?.count ?? 0))) * 1000]));
      log(`   ${name}: ${run.status} in ${c.fmt(run.seconds, 2)} s; annotations ${JSON.stringify(summary.annotations)}`);
      rows.push({ name, tasksPerSec: opts.tasks / run.seconds, read, annotations: summary.annotations });
    }
    console.log(`\nRun summaries with annotation counts (${opts.mode}, ${opts.tasks} tasks, ${opts.media} clips × ${opts.labels} annotations)`);
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(6)} run ${c.fmt(r.tasksPerSec, 0)} tasks/s; GET tasks (limit 50) p50 ${c.fmt(r.read.p50, 2)} ms, p99 ${c.fmt(r.read.p99, 2)} ms, ` +
          `${c.fmt(r.read.rate, 0)} req/s, errors ${r.read.errors}; annotations.total ${r.annotations?.total}; mean bus request ms ` +
          Object.entries(r.read.bus)
            .map(([p, v]) => `${p} ${c.fmt(v, 1)}`)
            .join(', '),
      );
    }
  } finally {
    await c.cleanupAll();
  }
}

main().catch(async (e) => {
  console.error(e);
  await c.cleanupAll();
  process.exit(1);
});
