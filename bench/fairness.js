'use strict';
// Fairness of the shared queues between projects (issue 59, item 6): for each queue, project B's
// p99 for its normal small request alone, then while project A floods the same queue, and the
// ratio (target: within 1.5×). The baseline is B alone, measured in the same run on the same
// service. Loopback only; every loop is bounded (--samples of B's requests per phase, A's flood
// stopped once they are done, or after --max-phase-seconds).
//   otlp:   B exports a small OTLP/HTTP protobuf trace (10 spans, decoded on the event loop);
//           A floods large invalid exports (--otlp-mib each, all-zero trace ids: decoded on the
//           decode pool's threads, then refused; the same bytes every time, made once, so that
//           the load generator's own CPU on this machine is not counted against the service).
//   probe:  B uploads a 64×64 PNG and waits (Prefer: wait) until it is probed: the time from the
//           upload's 201 to the probed answer (the upload's own time printed beside it). A floods 8000×8000 PNG "image bombs" (~190 KB
//           each, each distinct), --flood at a time.
//   frames: B asks a frame of its 10 s 320×240 clip at an instant not asked before (a render);
//           A floods frame requests of its 20 s 1280×720 clip (a keyframe every 20 s: each seek
//           decodes up to 20 s of frames), --flood at a time.
// A floods from a process of its own (lib/fairness-flood.js), as it would from its own machine:
// sending its bodies does not delay the loop that times B's requests, and that process runs at
// the lowest CPU priority, so its own work does not take the service's cores either.
// A is a flooding client as a real one behaves: an answer 429 or 503 with Retry-After holds that
// loop of A's back for the seconds it says (as OTLP exporters and the API's clients do);
// `--a-retry-after ignore` makes A an attacker that retries at once, to measure what refusing costs.
// Usage: node bench/fairness.js [--mode all-in-one|distributed] [--samples 40] [--flood 8]
//          [--only otlp,probe,frames] [--otlp-mib 3] [--max-phase-seconds 120]
//          [--a-retry-after honour|ignore] [--rounds 4]
// B alone and B while A floods take turns, --rounds of each (--samples split between them).
const { execFileSync, fork } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const c = require('./lib/common');
const { otlpBodyFactory } = require('./lib/otlp-body');

const opts = c.parseArgs(process.argv.slice(2), {
  mode: 'all-in-one',
  samples: 40,
  flood: 8,
  only: 'otlp,probe,frames',
  'otlp-mib': 3,
  'max-phase-seconds': 120,
  'a-retry-after': 'honour',
  rounds: 4,
});
if (!['honour', 'ignore'].includes(opts['a-retry-after'])) throw new Error('--a-retry-after is honour or ignore');
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
const PARTS = opts.only.split(',').map((part) => part.trim());
for (const part of PARTS) if (!['otlp', 'probe', 'frames'].includes(part)) throw new Error(`--only takes otlp, probe and frames, not '${part}'`);
const log = (...a) => console.error(...a);
/** B's p99 while A floods, over B's p99 alone. */
const RATIO_TARGET = 1.5;

/** The ffmpeg the service runs (libs/media-tools, built), to make the pictures and clips here: no fixtures. */
function ffmpegPath() {
  const { resolveMediaTools } = require(path.join(c.ROOT, 'libs/media-tools/dist'));
  return resolveMediaTools({ FFMPEG_PATH: process.env.FFMPEG_PATH, FFPROBE_PATH: process.env.FFPROBE_PATH }).ffmpeg.path;
}

function makeMedia(dir) {
  const ffmpeg = ffmpegPath();
  const make = (name, args) => {
    const file = path.join(dir, name);
    execFileSync(ffmpeg, ['-hide_banner', '-v', 'error', ...args, '-y', file], { timeout: 300_000 });
    return fs.readFileSync(file);
  };
  return {
    bomb: make('bomb.png', ['-f', 'lavfi', '-i', 'color=c=black:size=8000x8000', '-frames:v', '1']),
    small: make('small.png', ['-f', 'lavfi', '-i', 'testsrc=size=64x64', '-frames:v', '1']),
    smallClip: make('small.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=24:duration=10', '-pix_fmt', 'yuv420p']),
    heavyClip: make('heavy.mp4', ['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=20', '-pix_fmt', 'yuv420p', '-g', '600', '-keyint_min', '600']),
  };
}

/** A distinct copy of `bytes` (the service keeps one media per content per project): a counter after the end, which PNG and MP4 readers ignore. */
let distinct = 0;
const unique = (bytes) => Buffer.concat([bytes, Buffer.from(`#${process.pid}-${++distinct}`)]);

async function newProject(service, name) {
  const auth = { authorization: service.headers.authorization };
  const created = await c.expectJson(service.baseUrl, 'POST', '/api/v1/projects', {
    headers: auth,
    body: { name: `Fairness ${name} ${Math.random().toString(16).slice(2, 8)}` },
    status: 201,
  });
  return { ...auth, 'x-project-key': created.key };
}

const upload = (service, headers, bytes, contentType) =>
  c.request(service.baseUrl, 'POST', '/api/v1/media', { headers: { ...headers, 'content-type': contentType }, body: bytes, timeoutMs: 120_000 });

async function uploaded(service, headers, bytes, contentType) {
  const r = await upload(service, headers, bytes, contentType);
  if (r.status !== 201 && r.status !== 200) throw new Error(`upload: ${r.status} ${r.body.slice(0, 300)}`);
  return r.json().id;
}

/** Waits (Prefer: wait) until the media is no longer pending; answers its status. */
async function probed(service, headers, id) {
  for (;;) {
    const r = await c.request(service.baseUrl, 'GET', `/api/v1/media/${id}`, { headers: { ...headers, prefer: 'wait=10' }, timeoutMs: 30_000 });
    if (r.status !== 200) throw new Error(`GET media: ${r.status} ${r.body.slice(0, 200)}`);
    const { status } = r.json();
    if (status !== 'pending') return status;
  }
}

/** `count` of B's requests one after the other (told `into.phase`), their latencies (ms) and failures added to `into` (B's requests are ordinary ones: any failure misses the target). */
async function sampleB(count, one, into = { phase: 'warm', latencies: [], failures: [] }) {
  for (let i = 0; i < count; i++) {
    try {
      into.latencies.push(await one(into.phase));
    } catch (e) {
      into.failures.push(e.message.slice(0, 160));
    }
  }
  return into;
}

/** A sample's summary: its latencies' percentiles, and how many failed. */
function summarized({ latencies, failures }) {
  return { ...c.summarize(latencies), failed: failures.length, firstFailure: failures[0] };
}

/** A's answers of every round ('3×429, 5×200' each), added up. */
function countsOf(rounds) {
  const counts = new Map();
  for (const round of rounds)
    for (const part of round.split(', ').filter(Boolean)) {
      const [n, status] = part.split('×');
      counts.set(status, (counts.get(status) || 0) + Number(n));
    }
  return [...counts].map(([status, n]) => `${n}×${status}`).join(', ');
}

/**
 * A's flood: `concurrency` loops of A's request (`spec`, see lib/fairness-flood.js) until
 * stop(), in a child process, so that sending A's large bodies never delays the event loop
 * that times B's requests. stop() answers A's answers counted by status.
 */
function startFlood(concurrency, spec, dir) {
  let bodyFile;
  if (spec.body) {
    bodyFile = path.join(dir, `flood-${spec.kind}.bin`);
    fs.writeFileSync(bodyFile, spec.body);
  }
  const child = fork(path.join(__dirname, 'lib/fairness-flood.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  c.onCleanup(() => child.kill());
  // A's client stands in for another machine: on this one its CPU (sending 3 MiB bodies, the
  // kernel's loopback copies made in its name) would take cores from the service under test.
  // At the lowest priority it takes only what the service and B leave idle.
  try {
    require('node:os').setPriority(child.pid, 19);
  } catch {
    log("NOTE could not lower the flooding process's priority: its CPU is counted against the service");
  }
  const answered = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`A's flood ended (${code}) before it was stopped`)));
  });
  child.send({
    kind: spec.kind,
    headers: spec.headers,
    contentType: spec.contentType,
    mediaId: spec.mediaId,
    bodyFile,
    baseUrl: spec.baseUrl,
    concurrency,
    honourRetryAfter: opts['a-retry-after'] === 'honour',
    maxPhaseSeconds: opts['max-phase-seconds'],
  });
  return {
    stop() {
      child.send('stop');
      return answered;
    },
  };
}

const SCENARIOS = {
  async otlp(service) {
    const a = await newProject(service, 'A');
    const b = await newProject(service, 'B');
    const small = otlpBodyFactory({ spans: 10 });
    const perSpan = small().body.length / 10;
    const large = otlpBodyFactory({ spans: Math.ceil((opts['otlp-mib'] * 1048576) / perSpan) });
    /** A large export whose trace id is all zeros (invalid in OTLP): decoded whole, then refused. Refused whole, it needs no new ids: made once. */
    const invalid = (() => {
      const { id, body } = large();
      const traceId = Buffer.from(id, 'hex');
      for (let at = body.indexOf(traceId); at !== -1; at = body.indexOf(traceId, at + 1)) body.fill(0, at, at + traceId.length);
      return body;
    })();
    const post = (headers, body) =>
      c.request(service.baseUrl, 'POST', '/v1/traces', { headers: { ...headers, 'content-type': 'application/x-protobuf' }, body, timeoutMs: 60_000 });
    return {
      what: `OTLP decode: B's 10-span export (${(small().body.length / 1024).toFixed(1)} KB); A floods invalid exports of ${opts['otlp-mib']} MiB`,
      b: async () => {
        const r = await post(b, small().body);
        if (r.status !== 200) throw new Error(`B's export: ${r.status} ${r.body.slice(0, 200)}`);
        return r.ms;
      },
      a: { kind: 'otlp', baseUrl: service.baseUrl, headers: a, contentType: 'application/x-protobuf', body: invalid },
    };
  },

  async probe(service, media) {
    const a = await newProject(service, 'A');
    const b = await newProject(service, 'B');
    /** B's upload times, by the phase they were taken in (the sample's `phase`). */
    const uploads = { warm: [], alone: [], during: [] };
    return {
      what: "media probe: B's 64×64 PNG, from its upload's 201 to its probed answer; A floods 8000×8000 PNG bombs",
      // The queue's figure is from the upload's 201 to the probed answer (as bench:media's); the upload itself, which A's flood slows on a small machine's CPU, is printed beside it.
      b: async (phase) => {
        const started = process.hrtime.bigint();
        const id = await uploaded(service, b, unique(media.small), 'image/png');
        const accepted = process.hrtime.bigint();
        uploads[phase].push(Number(accepted - started) / 1e6);
        const status = await probed(service, b, id);
        if (status !== 'ready') throw new Error(`B's picture was probed ${status}`);
        return Number(process.hrtime.bigint() - accepted) / 1e6;
      },
      aside: (phase) => {
        const { p50, p99 } = c.summarize(uploads[phase]);
        return `B's uploads before it: p50 ${c.fmt(p50)} ms, p99 ${c.fmt(p99)} ms`;
      },
      a: { kind: 'upload', baseUrl: service.baseUrl, headers: a, contentType: 'image/png', body: media.bomb },
    };
  },

  async frames(service, media) {
    const a = await newProject(service, 'A');
    const b = await newProject(service, 'B');
    const aClip = await uploaded(service, a, media.heavyClip, 'video/mp4');
    const bClip = await uploaded(service, b, media.smallClip, 'video/mp4');
    for (const [headers, id] of [
      [a, aClip],
      [b, bClip],
    ]) {
      const status = await probed(service, headers, id);
      if (status !== 'ready') throw new Error(`a clip was probed ${status}`);
    }
    // Instants not asked before, so that each request renders (a rendered frame is stored, then read).
    let bAt = 0;
    const frame = (headers, id, atMs) => c.request(service.baseUrl, 'GET', `/api/v1/media/${id}/frames?atMs=${atMs}`, { headers, timeoutMs: 30_000 });
    return {
      what: "frames: B's frame of a 10 s 320×240 clip; A floods frames of a 20 s 720p clip with one keyframe",
      b: async () => {
        const r = await frame(b, bClip, (bAt += 97) % 10_000);
        if (r.status !== 200) throw new Error(`B's frame: ${r.status} ${r.body.slice(0, 200)}`);
        return r.ms;
      },
      a: { kind: 'frame', baseUrl: service.baseUrl, headers: a, mediaId: aClip },
    };
  },
};

async function main() {
  log(
    `bench:fairness, ${opts.mode}: ${PARTS.join(', ')}; ${opts.samples} of B's requests per phase, A ${opts.flood} at a time, ${opts['a-retry-after'] === 'honour' ? 'honouring' : 'ignoring'} Retry-After`,
  );
  const dir = c.tempDir('cinetrace-bench-fairness-');
  const media = PARTS.some((p) => p !== 'otlp') ? makeMedia(dir) : null;
  const service = await c.startService(opts.mode, { log });
  c.onCleanup(() => service.stop());
  const rows = [];
  const notes = [];
  for (const part of PARTS) {
    const scenario = await SCENARIOS[part](service, media);
    log(`\n${scenario.what}`);
    // A few of B's requests first, not counted: the first render, the first decode warm things up.
    const warm = summarized(await sampleB(3, scenario.b));
    if (warm.failed) throw new Error(`B's first requests failed: ${warm.firstFailure}`);
    scenario.aside?.('warm');
    // Alone and flooding phases take turns (--rounds of each), so that whatever else the machine
    // runs meanwhile weighs on both alike: the ratio is the flood's, not the neighbours'.
    const alone = { phase: 'alone', latencies: [], failures: [] };
    const during = { phase: 'during', latencies: [], failures: [] };
    const answers = [];
    const perRound = Math.ceil(opts.samples / opts.rounds);
    for (let round = 0; round < opts.rounds; round++) {
      await sampleB(perRound, scenario.b, alone);
      const flood = startFlood(opts.flood, scenario.a, dir);
      await c.sleep(1000);
      await sampleB(perRound, scenario.b, during);
      answers.push(await flood.stop());
    }
    const asideAlone = scenario.aside?.('alone');
    const asideDuring = scenario.aside?.('during');
    Object.assign(alone, summarized(alone));
    Object.assign(during, summarized(during));
    const answered = countsOf(answers);
    log(`  B alone: p50 ${c.fmt(alone.p50)} ms, p99 ${c.fmt(alone.p99)} ms${asideAlone ? `; ${asideAlone}` : ''}`);
    log(`  B while A floods: p50 ${c.fmt(during.p50)} ms, p99 ${c.fmt(during.p99)} ms; A's answers: ${answered}`);
    for (const [phase, sample] of [
      ['alone', alone],
      ['while A floods', during],
    ]) {
      if (sample.failed) notes.push(`${part}: ${sample.failed} of B's ${opts.samples} requests failed ${phase}, the first: ${sample.firstFailure}`);
    }
    notes.push(`${part}: A's answers ${answered}`);
    if (asideAlone) notes.push(`${part}: alone, ${asideAlone}; while A floods, ${asideDuring}`);
    const ratio = during.p99 / alone.p99;
    const failed = alone.failed + during.failed;
    rows.push({
      figure: `${part}: B's p99 (ms), A flooding / alone`,
      service: during.p99,
      baseline: alone.p99,
      ratio,
      target: `≤ ${RATIO_TARGET}`,
      pass: ratio <= RATIO_TARGET && !failed,
    });
    rows.push({ figure: `${part}: B's requests failed (alone + flooding)`, service: failed, baseline: 0, ratio: null, target: '0', pass: failed === 0 });
    rows.push({ figure: `${part}: B's p50 (ms), A flooding / alone`, service: during.p50, baseline: alone.p50, pass: null });
  }
  c.printTable(`Fairness between projects (${opts.mode}): "service" is B while A floods, "baseline" B alone`, rows);
  for (const note of notes) console.log(`NOTE ${note}`);
}

main()
  .catch((e) => {
    console.error(e.stack || e.message);
    process.exitCode = 1;
  })
  .finally(() => c.cleanupAll());
