'use strict';
// Media benchmarks (issue 25, "Measure"), the service beside the bare commands on this machine:
//   1. two clips made here by ffmpeg (no fixtures): 5 s of 1280×720 and 60 s of 1920×1080, 30 fps,
//      H.264 with AAC audio (testsrc2 and sine);
//   2. probe: each clip uploaded --repeats times, each time into a new project (the same bytes in
//      one project are the same media, probed once); the service's time is from the upload's
//      201 until GET /api/v1/media/{id} with `Prefer: wait` answers it probed, so the
//      upload itself is not counted. Beside it the bare ffprobe with the service's own arguments
//      on the file, and the same reading the file through a pipe, as the service feeds it the
//      stored bytes from S3 (a stream: an MP4 whose index is at its end is read whole then; the
//      filesystem store's file is given by its path);
//   3. video_qa: a benchmark run of one item whose output names the clip (`{ mediaId }`, probed
//      beforehand) with a `video_qa` scorer of every check, from POST …/start until GET …/runs
//      shows the run ended with the task scored; beside it the same ffmpeg pass run bare (the
//      arguments the scorer runs, from libs/media-tools' videoQaArgs), and for reference the same
//      run with a `video_conformance` scorer (everything but the analysis: the run, the media's
//      lookup and opening, the score's way back);
//   4. upload throughput: a file of --upload-mib MiB streamed through POST /api/v1/media, against
//      a plain durable copy of the same file (fs.copyFile, then fsync: what the filesystem
//      driver's put also ends with), and what bounds it: SHA-256 of the file alone, and the
//      filesystem store's put without HTTP. Medians of --repeats, each run printed too.
// Usage: node bench/media.js [--mode all-in-one|distributed] [--repeats 3] [--qa-repeats N]
//          [--upload-mib 512] [--poll-ms 10] [--only probe,qa,upload] [--clips 720p,1080p]
const { execFile, spawn } = require('node:child_process');
const { createReadStream } = require('node:fs');
const fs = require('node:fs');
const { processStats, TICKS_PER_SECOND } = require('./lib/cpu');
const http = require('node:http');
const path = require('node:path');
const { promisify } = require('node:util');
const c = require('./lib/common');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'all-in-one',
  repeats: 3,
  'qa-repeats': 0,
  'upload-mib': 512,
  'poll-ms': 10,
  only: 'probe,qa,upload',
  clips: '720p,1080p',
});
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
const PARTS = new Set(opts.only.split(',').map((part) => part.trim()));
for (const part of PARTS) if (!['probe', 'qa', 'upload'].includes(part)) throw new Error(`--only takes probe, qa and upload, not '${part}'`);
// video_qa of the 60 s clip takes minutes a pass: its repeats may be fewer than the probes'.
const QA_REPEATS = opts['qa-repeats'] || opts.repeats;
const log = (...a) => console.error(...a);
const run = promisify(execFile);
/** Our overhead should be the process hop, nothing else: the bare command's time over ours. */
const TIME_RATIO_TARGET = 0.9;

const CLIPS = [
  { key: '720p', name: '5 s 720p', file: 'clip-720p-5s.mp4', size: '1280x720', seconds: 5 },
  { key: '1080p', name: '60 s 1080p', file: 'clip-1080p-60s.mp4', size: '1920x1080', seconds: 60 },
].filter((clip) => opts.clips.split(',').includes(clip.key));

/** The ffmpeg and ffprobe the service runs when FFMPEG_PATH / FFPROBE_PATH are unset (libs/media-tools, built). */
function mediaTools() {
  const { resolveMediaTools } = require(path.join(c.ROOT, 'libs/media-tools/dist'));
  const tools = resolveMediaTools({ FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH });
  return { ffmpeg: tools.ffmpeg.path, ffprobe: tools.ffprobe.path };
}

/** The arguments the service's probe gives ffprobe (libs/media-tools/src/probe-media.ts), on `input`. */
function probeArgs(protocol, input) {
  const entries = 'format=duration,bit_rate,format_name:stream=codec_type,codec_name,width,height,avg_frame_rate,r_frame_rate,duration:stream_disposition=attached_pic';
  return ['-v', 'error', '-protocol_whitelist', protocol, '-print_format', 'json', '-show_entries', entries, input];
}

/** What the built libs give the bench: the scorer's own ffmpeg arguments and its checks. */
const mediaLib = () => require(path.join(c.ROOT, 'libs/media-tools/dist'));

/**
 * The video_qa checks this ffmpeg can run: every one, but "blur" needs blurdetect (ffmpeg 5.1+),
 * which the npm package's 2018 build lacks (docs/deploy.md): FFMPEG_PATH names a newer one.
 */
async function qaChecks(ffmpeg, notes) {
  const { VIDEO_QA_CHECKS, parseFilterList } = mediaLib();
  const filters = parseFilterList((await run(ffmpeg, ['-hide_banner', '-filters'], { maxBuffer: 8 * 1048576 })).stdout);
  if (filters.has('blurdetect')) return [...VIDEO_QA_CHECKS];
  notes.push(`video_qa ran without "blur": ${ffmpeg} has no blurdetect (set FFMPEG_PATH to ffmpeg 5.1 or later)`);
  return VIDEO_QA_CHECKS.filter((check) => check !== 'blur');
}

/**
 * The bare video_qa: the one ffmpeg pass the scorer runs (libs/media-tools' videoQaArgs: every
 * check, the default thresholds, one thread, each branch printing its frames' metadata to a file
 * in a fresh directory), run directly on the clip. prlimit, which the service wraps it in, is not.
 * Answers its wall milliseconds and CPU seconds.
 */
async function videoQaBare(ffmpeg, clip, checks) {
  const { videoQaArgs } = mediaLib();
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'cinetrace-bench-qa-'));
  try {
    const args = videoQaArgs({ path: clip.path, hasAudio: true }, checks, {}, dir);
    // This process's own CPU counts too, but it only waits meanwhile.
    return await timedWithCpu(process.pid, () => runBare(ffmpeg, args));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);
const QA_SLOW_POLL_MS = 100;
/** The attempt's time limit: the most a runner allows, since a 60 s 1080p analysis takes minutes on a loaded machine. */
const QA_RUNNER = { concurrency: 1, maxAttempts: 1, timeoutMs: 600_000 };

/** A request that must answer `status`; answers its JSON. */
const call = (service, headers, method, urlPath, body, status) => c.expectJson(service.baseUrl, method, urlPath, { headers, body, status });

/**
 * What video_qa through the service needs for a clip, made once: a project holding the clip as a
 * probed media, a dataset of one item whose stored output names it, and two benchmarks on it
 * (the `dataset` target answers that output): one scoring `video_qa` with every check, one
 * `video_conformance` (the same run and media opening, no analysis).
 */
async function videoQaSetup(service, clip, checks) {
  const headers = await newProjectHeaders(service);
  const media = await uploadFile(service, headers, clip.path);
  await untilProbed(service, headers, media.id, clip);
  const dataset = await call(service, headers, 'POST', '/api/v1/datasets', { name: `video_qa ${clip.name}` }, 201);
  await call(service, headers, 'POST', `/api/v1/datasets/${dataset.id}/items`, { items: [{ input: { prompt: clip.name }, metadata: { output: { mediaId: media.id } } }] }, 201);
  const benchmark = (name, scorer) =>
    call(
      service,
      headers,
      'POST',
      '/api/v1/benchmarks',
      { name: `${name} ${clip.name}`, datasetId: dataset.id, target: { type: 'dataset' }, scorers: [scorer], runner: QA_RUNNER },
      201,
    );
  const qa = await benchmark('video_qa', { type: 'video_qa', config: { checks } });
  const hop = await benchmark('video_conformance', { type: 'video_conformance', config: { expected: { width: 1 } } });
  return { headers, qa: qa.id, hop: hop.id };
}

/**
 * video_qa through the service: one run of the setup's benchmark `which`, from POST …/start until
 * GET …/runs shows it ended, its one task then read back to check it was
 * scored (a score, not an error). Answers the milliseconds to the run's end, the CPU seconds the
 * service's processes used meanwhile (its ffmpeg included; the polling GETs too), and the task's
 * own `durationMs` (the worker's attempt, as the service records it).
 */
async function videoQaThroughService(service, setup, which = 'qa') {
  const benchmarkId = setup[which];
  const cpu0 = treeCpuSeconds(service.proc.pid);
  const t0 = process.hrtime.bigint();
  const started = await call(service, setup.headers, 'POST', `/api/v1/benchmarks/${benchmarkId}/start`, undefined, 202);
  let ms;
  let cpuS;
  for (;;) {
    const page = await call(service, setup.headers, 'GET', `/api/v1/benchmarks/${benchmarkId}/runs?limit=1`, undefined, 200);
    const latest = page.data[0];
    if (latest?.id === started.id && ENDED.has(latest.status)) {
      ms = Number(process.hrtime.bigint() - t0) / 1e6;
      cpuS = treeCpuSeconds(service.proc.pid) - cpu0;
      break;
    }
    // Every --poll-ms for a second (the run without the analysis ends in tens of ms), then every
    // 100 ms: polling every 10 ms through a minutes-long analysis would load the machine it measures.
    await c.sleep(Number(process.hrtime.bigint() - t0) / 1e6 < 1000 ? opts['poll-ms'] : QA_SLOW_POLL_MS);
  }
  const tasks = await call(service, setup.headers, 'GET', `/api/v1/benchmarks/${benchmarkId}/tasks?runId=${started.id}`, undefined, 200);
  const score = tasks.data[0]?.scores?.[0];
  if (tasks.data[0]?.status !== 'completed' || !score || score.error || typeof score.score !== 'number')
    throw new Error(`the ${which} run ${started.id} did not score its task: ${JSON.stringify(tasks.data[0]).slice(0, 500)}`);
  return { ms, cpuS, taskMs: tasks.data[0].durationMs };
}

/**
 * CPU seconds (user + system) a process tree has used, from /proc (Linux): each process's own
 * time and that of the children it reaped (ffmpeg, once it exited). The service's tree is the
 * process the bench started (all-in-one, or start-distributed.js and its apps); the broker,
 * PostgreSQL and Redis are not in it. On a loaded machine this is the figure to compare: wall
 * time measures the queue for the cores as much as the work.
 */
function treeCpuSeconds(rootPid) {
  const parents = new Map();
  const ticks = new Map();
  for (const { pid, fields } of processStats()) {
    parents.set(pid, Number(fields[1]));
    ticks.set(pid, Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])); // utime, stime, cutime, cstime
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = parents.get(p) ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (inTree(pid)) total += t;
  return total / TICKS_PER_SECOND;
}

/** Wall milliseconds and CPU seconds of the tree at `rootPid` while `fn` runs. */
async function timedWithCpu(rootPid, fn) {
  const cpu0 = treeCpuSeconds(rootPid);
  const t0 = process.hrtime.bigint();
  await fn();
  return { ms: Number(process.hrtime.bigint() - t0) / 1e6, cpuS: treeCpuSeconds(rootPid) - cpu0 };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};

async function timed(fn) {
  const t0 = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

async function makeClips(dir, ffmpeg) {
  for (const clip of CLIPS) {
    clip.path = path.join(dir, clip.file);
    log(`  making ${clip.name} …`);
    const args = ['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${clip.size}:rate=30:duration=${clip.seconds}`];
    args.push('-f', 'lavfi', '-i', `sine=frequency=440:duration=${clip.seconds}`, '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-y', clip.path);
    await run(ffmpeg, args, { timeout: 600_000 });
    clip.bytes = fs.statSync(clip.path).size;
  }
}

/** POSTs a file to the media route as a stream (Content-Length from its size); answers the status and the media. */
function uploadFile(service, headers, file, contentType = 'video/mp4') {
  const url = new URL('/api/v1/media', service.baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'content-type': contentType, 'content-length': fs.statSync(file).size } }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 201) return reject(new Error(`upload of ${path.basename(file)}: ${res.statusCode} ${body.slice(0, 300)}`));
        resolve(JSON.parse(body));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

/** A new project of the service's key: a place where the same bytes are new media again. */
async function newProjectHeaders(service) {
  const auth = { authorization: service.headers.authorization };
  const created = await c.request(service.baseUrl, 'POST', '/api/v1/projects', {
    headers: auth,
    body: JSON.stringify({ name: `Media bench ${Math.random().toString(16).slice(2, 8)}` }),
  });
  if (created.status !== 201) throw new Error(`creating a project: ${created.status} ${created.body}`);
  return { ...auth, 'x-project-key': created.json().key };
}

/**
 * Upload, then the time from its 201 until the media is no longer pending (`ms`), and the
 * probe job's own time as the service measured it (`jobMs`, from its /metrics; null where
 * /metrics is not the media-service's: distributed, whose apps' health ports are unset here).
 */
async function probeThroughService(service, clip) {
  const headers = await newProjectHeaders(service);
  const before = await probeJobsSoFar(service);
  const media = await uploadFile(service, headers, clip.path);
  const uploaded = process.hrtime.bigint();
  await untilProbed(service, headers, media.id, clip);
  const ms = Number(process.hrtime.bigint() - uploaded) / 1e6;
  const after = await probeJobsSoFar(service);
  const jobMs = before && after && after.count === before.count + 1 ? (after.sum - before.sum) * 1000 : null;
  return { ms, jobMs };
}

/** cinetrace_media_probe_duration_seconds{outcome="ready"}'s sum and count so far (all-in-one: the process's /metrics). */
async function probeJobsSoFar(service) {
  if (opts.mode !== 'all-in-one') return null;
  const text = (await c.request(service.baseUrl, 'GET', '/metrics')).body;
  const read = (kind) => Number(new RegExp(`^cinetrace_media_probe_duration_seconds_${kind}\\{[^}]*outcome="ready"[^}]*\\} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  return { sum: read('sum'), count: read('count') };
}

/**
 * GET /api/v1/media/{id} with `Prefer: wait` (the service answers once the probe settled, or
 * after 10 s still pending: then it asks again); throws unless it is ready. Polling instead
 * measured the poll: a GET every 10 ms took CPU from ffprobe on two cores (bench/HISTORY.md,
 * Media, round four).
 */
async function untilProbed(service, headers, id, clip) {
  for (;;) {
    const got = await c.request(service.baseUrl, 'GET', `/api/v1/media/${id}`, { headers: { ...headers, prefer: 'wait=10' } });
    const status = got.status === 200 ? got.json().status : undefined;
    if (status && status !== 'pending') {
      if (status !== 'ready') throw new Error(`${clip.name} was probed ${status}: ${got.json().error}`);
      return;
    }
    if (got.status !== 200) await c.sleep(opts['poll-ms']);
  }
}

async function main() {
  const dir = c.tempDir('cinetrace-bench-media-');
  const tools = mediaTools();
  log(`ffmpeg ${tools.ffmpeg}, ffprobe ${tools.ffprobe}`);
  await makeClips(dir, tools.ffmpeg);

  log(`starting the service (${opts.mode}) …`);
  // The service runs the same binaries as the bare side.
  const env = { ...(process.env.FFMPEG_PATH ? { FFMPEG_PATH: process.env.FFMPEG_PATH } : {}), ...(process.env.FFPROBE_PATH ? { FFPROBE_PATH: process.env.FFPROBE_PATH } : {}) };
  // Distributed: queues of its own on the shared Redis (another stack's media-service must not take its probes), removed afterwards.
  env.QUEUE_PREFIX = `bench-media-${require('node:crypto').randomBytes(4).toString('hex')}`;
  if (opts.mode === 'distributed')
    c.onCleanup(() => require(path.join(c.ROOT, 'libs/testing/dist/redis-prefix.js')).dropRedisPrefix(process.env.BENCH_REDIS_URL || 'redis://127.0.0.1:6379', env.QUEUE_PREFIX));
  const service = await c.startService(opts.mode, { log, env });
  const rows = [];
  const notes = [];
  const checks = PARTS.has('qa') ? await qaChecks(tools.ffmpeg, notes) : [];
  /** Each run of each figure, printed under the table (medians hide a noisy machine). */
  const runs = [];
  const each = (figure, unit, values) => runs.push(`${figure}: ${values.map((v) => v.toFixed(unit === 'ms' ? 0 : unit === 'CPU s' ? 2 : 1)).join(' / ')} ${unit}`);
  try {
    for (const clip of CLIPS) {
      if (PARTS.has('probe')) {
        const bare = [];
        const barePipe = [];
        const through = [];
        const jobs = [];
        log(`  probe, ${clip.name} …`);
        // The sides alternate, so the machine's drift weighs on each alike.
        for (let i = 0; i < opts.repeats; i++) {
          bare.push(await timed(() => runBare(tools.ffprobe, probeArgs('file', `file:${clip.path}`))));
          barePipe.push(await timed(() => pipeInto(tools.ffprobe, probeArgs('pipe', 'pipe:0'), clip.path)));
          const { ms, jobMs } = await probeThroughService(service, clip);
          through.push(ms);
          if (jobMs !== null) jobs.push(jobMs);
        }
        const [b, p, s] = [median(bare), median(barePipe), median(through)];
        rows.push({
          figure: `probe ${clip.name} (${(clip.bytes / 1048576).toFixed(1)} MiB), ms`,
          service: s,
          baseline: b,
          ratio: b / s,
          target: `ratio >= ${TIME_RATIO_TARGET}`,
          pass: b / s >= TIME_RATIO_TARGET,
        });
        rows.push({ figure: `  bare ffprobe through a pipe (how S3 media is probed), ms`, service: s, baseline: p, ratio: p / s, target: '-', pass: null });
        // What the service itself adds (its row read, the blob's stat, the spawn, the outcome's write), without the client's polling.
        if (jobs.length === through.length) {
          const j = median(jobs);
          rows.push({ figure: `  the probe job alone (the service's own metric), ms`, service: j, baseline: b, ratio: b / j, target: '-', pass: null });
        }
        each(`probe ${clip.name}, service`, 'ms', through);
        if (jobs.length) each(`probe ${clip.name}, the probe job (cinetrace_media_probe_duration_seconds)`, 'ms', jobs);
        each(`probe ${clip.name}, bare ffprobe on the file`, 'ms', bare);
        each(`probe ${clip.name}, bare ffprobe through a pipe`, 'ms', barePipe);
      }

      if (PARTS.has('qa')) {
        log(`  video_qa, ${clip.name} (${QA_REPEATS} runs each side) …`);
        const setup = await videoQaSetup(service, clip, checks);
        const bare = [];
        const through = [];
        const hop = [];
        for (let i = 0; i < QA_REPEATS; i++) {
          bare.push(await videoQaBare(tools.ffmpeg, clip, checks));
          through.push(await videoQaThroughService(service, setup, 'qa'));
          hop.push(await videoQaThroughService(service, setup, 'hop'));
          const [b, s, h] = [bare[i], through[i], hop[i]];
          log(
            `    run ${i + 1}: bare ${b.ms.toFixed(0)} ms / ${b.cpuS.toFixed(1)} CPU s, service ${s.ms.toFixed(0)} ms / ${s.cpuS.toFixed(1)} CPU s (its task ${s.taskMs} ms), ` +
              `the run without the analysis ${h.ms.toFixed(0)} ms / ${h.cpuS.toFixed(2)} CPU s`,
          );
        }
        const pick = (values, key) => values.map((v) => v[key]);
        const [b, s, h] = [median(pick(bare, 'ms')), median(pick(through, 'ms')), median(pick(hop, 'ms'))];
        const [bc, sc, hc] = [median(pick(bare, 'cpuS')), median(pick(through, 'cpuS')), median(pick(hop, 'cpuS'))];
        const target = `ratio >= ${TIME_RATIO_TARGET}`;
        rows.push({ figure: `video_qa ${clip.name}, ${checks.length} checks, ms`, service: s, baseline: b, ratio: b / s, target, pass: b / s >= TIME_RATIO_TARGET });
        rows.push({
          figure: `  the same in CPU seconds (the service's processes; bare: ffmpeg)`,
          service: sc,
          baseline: bc,
          ratio: bc / sc,
          target,
          pass: bc / sc >= TIME_RATIO_TARGET,
        });
        rows.push({
          figure: `  the run scoring video_conformance instead (no analysis), ms; CPU s`,
          service: `${h.toFixed(0)}; ${hc.toFixed(2)}`,
          baseline: null,
          ratio: null,
          target: '-',
          pass: null,
        });
        each(`video_qa ${clip.name}, service`, 'ms', pick(through, 'ms'));
        each(`video_qa ${clip.name}, bare ffmpeg`, 'ms', pick(bare, 'ms'));
        each(`video_qa ${clip.name}, service`, 'CPU s', pick(through, 'cpuS'));
        each(`video_qa ${clip.name}, bare ffmpeg`, 'CPU s', pick(bare, 'cpuS'));
        each(`video_qa ${clip.name}, its task's durationMs`, 'ms', pick(through, 'taskMs'));
        each(`video_qa ${clip.name}, the run with video_conformance`, 'ms', pick(hop, 'ms'));
      }
    }

    if (PARTS.has('upload')) await uploadFigures(service, dir, rows, each);
  } finally {
    await service.stop();
  }
  console.log(`\nbench:media (${opts.mode}), medians of ${opts.repeats} (video_qa: ${QA_REPEATS}); baseline: the bare command (probe, video_qa) or a plain file copy (upload)`);
  c.printTable('Media', rows);
  console.log('\nEach run:');
  for (const line of runs) console.log(`  ${line}`);
  for (const note of notes) console.log(`NOTE: ${note}`);
}

/**
 * Upload throughput: one file of random bytes streamed through POST /api/v1/media, against a plain
 * durable copy; beside them what bounds the service on this machine: SHA-256 of the file alone,
 * and the filesystem store's own put (libs/blob-store, built: stream, hash, write, fsync, rename)
 * without HTTP. The sides alternate.
 */
async function uploadFigures(service, dir, rows, each) {
  const { FsBlobStore } = require(path.join(c.ROOT, 'libs/blob-store/dist'));
  const mib = opts['upload-mib'];
  log(`  upload of ${mib} MiB …`);
  const big = path.join(dir, 'upload.bin');
  await writeRandomFile(big, mib * 1048576);
  const copies = [];
  const hashes = [];
  const puts = [];
  const uploads = [];
  for (let i = 0; i < opts.repeats; i++) {
    const target = path.join(dir, `copy-${i}.bin`);
    copies.push(await timed(() => durableCopy(big, target)));
    fs.rmSync(target);
    hashes.push(await timed(() => sha256Of(big)));
    const store = path.join(dir, `store-${i}`);
    puts.push(await timed(() => new FsBlobStore(store).put('bench', createReadStream(big), { maxBytes: Number.MAX_SAFE_INTEGER })));
    fs.rmSync(store, { recursive: true, force: true });
    const headers = await newProjectHeaders(service);
    uploads.push(await timed(() => uploadFile(service, headers, big)));
  }
  const rate = (ms) => mib / (ms / 1000);
  const [upload, copy, hash, put] = [uploads, copies, hashes, puts].map((values) => rate(median(values)));
  rows.push({ figure: `upload ${mib} MiB, MiB/s (against a copy + fsync)`, service: upload, baseline: copy, target: '-', pass: null });
  rows.push({ figure: `  against SHA-256 of the file alone`, service: upload, baseline: hash, target: '-', pass: null });
  rows.push({ figure: `  against the fs store's put, no HTTP`, service: upload, baseline: put, target: '-', pass: null });
  each('upload, service', 'MiB/s', uploads.map(rate));
  each('upload, copy + fsync', 'MiB/s', copies.map(rate));
  each('upload, SHA-256 alone', 'MiB/s', hashes.map(rate));
  each("upload, the fs store's put", 'MiB/s', puts.map(rate));
}

/** SHA-256 of a file read as a stream, as the store hashes an upload. */
async function sha256Of(file) {
  const hash = require('node:crypto').createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Runs a bare command in a session of its own, as the service's processes are (the bench starts
 * them detached): with the kernel's autogroups (sched_autogroup_enabled, on here) each session
 * gets an equal share of a busy machine, so a bare side run in the bench's own session, shared
 * with whatever else it started, would wait longer than the service for the same work.
 */
function runBare(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

/** Runs `command` with `file` on its standard input, as the service pipes the stored bytes into ffprobe. */
function pipeInto(command, args, file) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
    const input = createReadStream(file);
    // ffprobe may stop reading once it knows enough: a closed pipe then is not an error.
    child.stdin.on('error', () => undefined);
    input.pipe(child.stdin);
    child.once('error', reject);
    child.once('close', (code) => (input.destroy(), code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

async function writeRandomFile(file, bytes) {
  const block = require('node:crypto').randomBytes(1048576);
  const handle = await fs.promises.open(file, 'w');
  try {
    for (let written = 0; written < bytes; written += block.length) await handle.write(block, 0, Math.min(block.length, bytes - written));
  } finally {
    await handle.close();
  }
}

/** fs.copyFile, then the copy flushed to disk: the least a store that keeps an upload does. */
async function durableCopy(from, to) {
  await fs.promises.copyFile(from, to);
  const handle = await fs.promises.open(to, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

main()
  .catch((err) => {
    console.error(err.stack || err.message);
    process.exitCode = 1;
  })
  .finally(() => c.cleanupAll());
