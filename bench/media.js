'use strict';
// Media benchmarks (issue 25, "Measure"), the service beside the bare commands on this machine:
//   1. two clips made here by ffmpeg (no fixtures): 5 s of 1280×720 and 60 s of 1920×1080, 30 fps,
//      H.264 with AAC audio (testsrc2 and sine);
//   2. probe: each clip uploaded --repeats times, each time into a new project (the same bytes in
//      one project are the same media, probed once); the service's time is from the upload's
//      201 until GET /api/v1/media/{id} no longer says `pending` (polled every --poll-ms), so the
//      upload itself is not counted. Beside it the bare ffprobe with the service's own arguments
//      on the file, and the same reading the file through a pipe, as the service feeds it the
//      stored bytes (a stream: an MP4 whose index is at its end is read whole either way then);
//   3. video_qa: the bare ffmpeg run of its detectors on each clip; the service's side is the hook
//      `videoQaThroughService` below, to be filled in once the video_qa scorer exists;
//   4. upload throughput: a file of --upload-mib MiB streamed through POST /api/v1/media, against
//      a plain durable copy of the same file (fs.copyFile, then fsync: what the filesystem
//      driver's put also ends with). Medians of --repeats.
// Usage: node bench/media.js [--mode all-in-one|distributed] [--repeats 3] [--upload-mib 512]
//          [--poll-ms 10]
const { execFile } = require('node:child_process');
const { createReadStream } = require('node:fs');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { promisify } = require('node:util');
const c = require('./lib/common');

const opts = c.parseArgs(process.argv.slice(2), { mode: 'all-in-one', repeats: 3, 'upload-mib': 512, 'poll-ms': 10 });
if (!['all-in-one', 'distributed'].includes(opts.mode)) throw new Error('--mode is all-in-one or distributed');
const log = (...a) => console.error(...a);
const run = promisify(execFile);
/** Our overhead should be the process hop, nothing else: the bare command's time over ours. */
const TIME_RATIO_TARGET = 0.9;

const CLIPS = [
  { name: '5 s 720p', file: 'clip-720p-5s.mp4', size: '1280x720', seconds: 5 },
  { name: '60 s 1080p', file: 'clip-1080p-60s.mp4', size: '1920x1080', seconds: 60 },
];

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

/**
 * The bare video_qa: one ffmpeg pass with the detectors the scorer names (black, freeze, flicker's
 * luma statistics, blur, flashes; silence and loudness on the audio), decoding the whole clip.
 * When the scorer lands, align this with the graph it runs (libs/media-tools) so both sides do the same work.
 */
function videoQaArgs(file) {
  const video = 'blackdetect=d=0.5:pix_th=0.10,freezedetect=n=-60dB:d=0.5,signalstats,blurdetect,photosensitivity';
  const audio = 'silencedetect=n=-50dB:d=0.5,ebur128';
  return ['-hide_banner', '-nostats', '-v', 'info', '-i', file, '-filter_complex', `[0:v]${video}[v];[0:a]${audio}[a]`, '-map', '[v]', '-map', '[a]', '-f', 'null', '-'];
}

/**
 * HOOK: video_qa through the service, once the scorer exists (another change builds it): time a
 * benchmark run whose one item's output names the uploaded clip (`{ mediaId }`) with a
 * `video_qa` scorer, from the run's start until it ends, minus a run with a trivial scorer.
 * Answers the milliseconds, or null while there is no such scorer.
 */
async function videoQaThroughService(/* service, clip */) {
  return null;
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

/** Upload, then the time from its 201 until the media is no longer pending. */
async function probeThroughService(service, clip) {
  const headers = await newProjectHeaders(service);
  const media = await uploadFile(service, headers, clip.path);
  const uploaded = process.hrtime.bigint();
  for (;;) {
    const got = await c.request(service.baseUrl, 'GET', `/api/v1/media/${media.id}`, { headers });
    const status = got.status === 200 ? got.json().status : undefined;
    if (status && status !== 'pending') {
      const ms = Number(process.hrtime.bigint() - uploaded) / 1e6;
      if (status !== 'ready') throw new Error(`${clip.name} was probed ${status}: ${got.json().error}`);
      return ms;
    }
    await c.sleep(opts['poll-ms']);
  }
}

async function main() {
  const dir = c.tempDir('cinetrace-bench-media-');
  const tools = mediaTools();
  log(`ffmpeg ${tools.ffmpeg}, ffprobe ${tools.ffprobe}`);
  await makeClips(dir, tools.ffmpeg);

  log(`starting the service (${opts.mode}) …`);
  const service = await c.startService(opts.mode, { log });
  const rows = [];
  const notes = [];
  try {
    for (const clip of CLIPS) {
      const bare = [];
      const barePipe = [];
      const through = [];
      log(`  probe, ${clip.name} …`);
      for (let i = 0; i < opts.repeats; i++) {
        bare.push(await timed(() => run(tools.ffprobe, probeArgs('file', `file:${clip.path}`))));
        barePipe.push(await timed(() => pipeInto(tools.ffprobe, probeArgs('pipe', 'pipe:0'), clip.path)));
        through.push(await probeThroughService(service, clip));
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
      rows.push({ figure: `  bare ffprobe through a pipe, as the service feeds it, ms`, service: s, baseline: p, ratio: p / s, target: '-', pass: null });

      log(`  video_qa's bare ffmpeg, ${clip.name} …`);
      const qaBare = median(await repeat(() => timed(() => run(tools.ffmpeg, videoQaArgs(clip.path), { maxBuffer: 64 * 1048576 }))));
      const qaService = await videoQaThroughService(service, clip);
      rows.push({
        figure: `video_qa ${clip.name}, ms`,
        service: qaService,
        baseline: qaBare,
        ratio: qaService ? qaBare / qaService : null,
        target: `ratio >= ${TIME_RATIO_TARGET}`,
        pass: qaService ? qaBare / qaService >= TIME_RATIO_TARGET : null,
      });
    }
    if (rows.some((r) => r.figure.startsWith('video_qa') && r.service === null))
      notes.push('video_qa: only the bare ffmpeg side is timed; the scorer is not built yet (videoQaThroughService in bench/media.js is the hook).');

    // Upload throughput: one file of random bytes, streamed in, against a plain durable copy.
    log(`  upload of ${opts['upload-mib']} MiB …`);
    const big = path.join(dir, 'upload.bin');
    await writeRandomFile(big, opts['upload-mib'] * 1048576);
    const mib = opts['upload-mib'];
    const copies = [];
    const uploads = [];
    for (let i = 0; i < opts.repeats; i++) {
      const target = path.join(dir, `copy-${i}.bin`);
      copies.push(await timed(() => durableCopy(big, target)));
      fs.rmSync(target);
      const headers = await newProjectHeaders(service);
      uploads.push(await timed(() => uploadFile(service, headers, big)));
    }
    const [copyMs, uploadMs] = [median(copies), median(uploads)];
    rows.push({ figure: `upload ${mib} MiB, MiB/s`, service: mib / (uploadMs / 1000), baseline: mib / (copyMs / 1000), target: '-', pass: null });
  } finally {
    await service.stop();
  }
  console.log(`\nbench:media (${opts.mode}), medians of ${opts.repeats}; baseline: the bare command (probe, video_qa) or a plain file copy (upload)`);
  c.printTable('Media', rows);
  for (const note of notes) console.log(`NOTE: ${note}`);
}

async function repeat(fn) {
  const results = [];
  for (let i = 0; i < opts.repeats; i++) results.push(await fn());
  return results;
}

/** Runs `command` with `file` on its standard input, as the service pipes the stored bytes into ffprobe. */
function pipeInto(command, args, file) {
  return new Promise((resolve, reject) => {
    const child = require('node:child_process').spawn(command, args, { stdio: ['pipe', 'ignore', 'ignore'] });
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
