import { expect } from '@jest/globals';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Answer } from './support/api-types';
import { allTasks, benchmarkOn, BENCHMARKS, runEnds, startOk, type TaskView } from './support/benchmarks';
import { appendOk, createDataset, type Json } from './support/datasets';
import { expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';

jest.setTimeout(180_000);

const MEDIA = '/api/v1/media';
const SIZE = 'size=320x240:rate=24';

/** The clips, made by ffmpeg here (no binary fixtures): a 2 s test pattern, it at low quality, one with a black second, an unrelated one. */
function makeClips(): Record<'source' | 'low' | 'black' | 'unrelated', Buffer> {
  const dir = mkdtempSync(join(tmpdir(), 'video-scorers-e2e-'));
  try {
    const source = makeClip(dir, 'source.mp4', lavfi(`testsrc=${SIZE}:duration=2`), ['-pix_fmt', 'yuv420p']);
    const low = makeClip(dir, 'low.mp4', ['-i', source], ['-c:v', 'libx264', '-crf', '45', '-pix_fmt', 'yuv420p']);
    const black = makeClip(dir, 'black.mp4', lavfi(`testsrc=${SIZE}:duration=1`, `color=black:${SIZE}:duration=1`, `testsrc=${SIZE}:duration=1`), [
      '-filter_complex',
      '[0:v][1:v][2:v]concat=n=3:v=1:a=0[v]',
      '-map',
      '[v]',
      '-pix_fmt',
      'yuv420p',
    ]);
    const unrelated = makeClip(dir, 'unrelated.mp4', lavfi(`mandelbrot=${SIZE}`), ['-t', '2', '-pix_fmt', 'yuv420p']);
    return { source: readFileSync(source), low: readFileSync(low), black: readFileSync(black), unrelated: readFileSync(unrelated) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function upload(api: Api, bytes: Buffer, contentType = 'video/mp4'): Promise<string> {
  const created = await api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: bytes, contentType });
  if (created.status !== 201 && created.status !== 200) throw new Error(`upload answered ${created.status}: ${created.text}`);
  return created.body.id;
}

interface MediaServer {
  url: (path: string) => string;
  /** What POST /target answers as every item's output (a model that generated a media). */
  targetOutput: unknown;
  close: () => Promise<void>;
}

/** A local server standing in for a provider's CDN (`/clip.mp4` answers the clip, anything else 404) and for a model (`POST /target`). */
async function aMediaServer(clip: Buffer): Promise<MediaServer> {
  const server: Server = createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/target') {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ output: media.targetOutput })));
    } else if (req.url === '/clip.mp4') res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length }).end(clip);
    else res.writeHead(404).end('gone');
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  const media: MediaServer = {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    targetOutput: null,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
  return media;
}

/** One task's scores by scorer name. */
const scoresOf = (task: TaskView) => Object.fromEntries(task.scores.map((s) => [s.scorer, s]));

const SPEC = { width: 320, height: 240, fps: 24, durationMs: 2000 };
const VIDEO_SCORERS = [
  { name: 'conformance', type: 'video_conformance', config: { field: 'video' } },
  { name: 'qa', type: 'video_qa', config: { field: 'video', checks: ['black', 'freeze', 'flicker'] } },
  { name: 'similarity', type: 'video_similarity', config: { field: 'video', method: 'ssim' } },
];

describe('Benchmarks: video scorers on media outputs', () => {
  // A local server stands in for a media URL; its address is private.
  const ctx = useStack({ env: { OUTBOUND_ALLOW_PRIVATE: 'true' } });
  let clips: ReturnType<typeof makeClips>;
  let server: Awaited<ReturnType<typeof aMediaServer>>;
  beforeAll(async () => {
    clips = makeClips();
    server = await aMediaServer(clips.source);
  }, 120_000);
  afterAll(() => server?.close());

  it('scores uploaded media: conformance to the spec, black and frozen seconds with their times, similarity to the expected media', async () => {
    const { api } = await inNewProject(ctx.api);
    const [source, low, black] = [await upload(api, clips.source), await upload(api, clips.low), await upload(api, clips.black)];
    const { benchmarkId } = await benchmarkOn(
      api,
      [
        { input: { prompt: 'a test card' }, expected: { ...SPEC, video: { mediaId: source } }, metadata: { output: { video: { mediaId: low } } } },
        {
          input: { prompt: 'a test card, 3 s' },
          expected: { ...SPEC, durationMs: 3000, fps: 30, video: { mediaId: source } },
          metadata: { output: { video: { mediaId: black } } },
        },
      ],
      { scorers: VIDEO_SCORERS },
    );
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId), 120_000);
    expect(run.status).toBe('completed');
    const [lowTask, blackTask] = await allTasks(api, benchmarkId, run.id);

    const lowScores = scoresOf(lowTask);
    expect(lowScores.conformance).toMatchObject({ score: 1, passed: true, error: null, details: { mismatches: [] } });
    expect(lowScores.qa).toMatchObject({ score: 1, passed: true, error: null, details: { findings: [], durationMs: expect.any(Number) } });
    expect(lowScores.similarity).toMatchObject({ passed: true, error: null, details: { method: 'ssim', frames: 48, reference: 'expected' } });
    expect(lowScores.similarity.score).toBeGreaterThan(0.5);
    expect(lowScores.similarity.score).toBeLessThan(1);

    const blackScores = scoresOf(blackTask);
    // width, height and duration match; 24 fps is not the 30 asked for.
    expect(blackScores.conformance).toMatchObject({ score: 0.75, passed: false, details: { mismatches: [{ field: 'fps', expected: 30, actual: 24 }] } });
    const findings = (blackScores.qa.details as { findings: Array<{ check: string; startMs: number; endMs: number; value: number | null }> }).findings;
    const blackFinding = findings.find((f) => f.check === 'black')!;
    expect(blackFinding.startMs).toBeGreaterThanOrEqual(950);
    expect(blackFinding.startMs).toBeLessThanOrEqual(1050);
    expect(blackFinding.endMs).toBeGreaterThanOrEqual(1950);
    expect(blackFinding.endMs).toBeLessThanOrEqual(2050);
    expect(findings.some((f) => f.check === 'freeze')).toBe(true);
    expect(blackScores.qa.score).toBeGreaterThan(0.6);
    expect(blackScores.qa.score).toBeLessThan(0.7);
    expect(blackScores.similarity.score).toBeLessThan(lowScores.similarity.score!);
    expect(run.scores.conformance).toEqual({ mean: 0.875, passRate: 0.5 });
  });

  it('fetches a { url, contentType } output under the outbound rules, and gives a URL that answers 404 a score error', async () => {
    const { api } = await inNewProject(ctx.api);
    const { benchmarkId } = await benchmarkOn(
      api,
      [
        { input: 'from a CDN', expected: SPEC, metadata: { output: { video: { url: server.url('/clip.mp4'), contentType: 'video/mp4' } } } },
        { input: 'expired', expected: SPEC, metadata: { output: { video: { url: server.url('/expired.mp4'), contentType: 'video/mp4' } } } },
      ],
      { scorers: [VIDEO_SCORERS[0]] },
    );
    const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId), 120_000);
    const [fetched, expired] = await allTasks(api, benchmarkId, run.id);
    expect(scoresOf(fetched).conformance).toMatchObject({ score: 1, error: null });
    expect(scoresOf(expired).conformance).toMatchObject({ score: null, passed: null, error: expect.stringMatching(/could not be fetched.*404/) });
    // The task itself completed: a scorer's failure is its score's, not the task's.
    expect(expired.status).toBe('completed');
  });

  it("never reads another project's media, nor another project's run: the score says not found", async () => {
    const owner = await inNewProject(ctx.api);
    const other = await inNewProject(ctx.api);
    const theirs = await upload(owner.api, clips.source);
    // The owner's run, whose output another project will name.
    const ownerBench = await benchmarkOn(owner.api, [{ input: 'x', expected: SPEC, metadata: { output: { video: { mediaId: theirs } } } }], { scorers: [VIDEO_SCORERS[0]] });
    const ownerRun = await runEnds(owner.api, ownerBench.benchmarkId, await startOk(owner.api, ownerBench.benchmarkId), 120_000);
    const notMedia = await upload(other.api, Buffer.from('this is a text file, not a video\n'.repeat(40)));

    const { benchmarkId } = await benchmarkOn(
      other.api,
      [
        { input: 'theirs', expected: { video: { mediaId: theirs } }, metadata: { output: { video: { mediaId: theirs } } } },
        { input: 'not media', expected: SPEC, metadata: { output: { video: { mediaId: notMedia } } } },
        { input: 'no media', expected: SPEC, metadata: { output: { caption: 'a fox' } } },
      ],
      {
        scorers: [VIDEO_SCORERS[0], { name: 'vs-their-run', type: 'video_similarity', config: { field: 'video', method: 'psnr', reference: { runId: ownerRun.id } } }],
      },
    );
    const run = await runEnds(other.api, benchmarkId, await startOk(other.api, benchmarkId), 120_000);
    const [theirsTask, notMediaTask, noMediaTask] = await allTasks(other.api, benchmarkId, run.id);
    expect(scoresOf(theirsTask).conformance).toMatchObject({ score: null, details: null, error: `the output: '${theirs}' was not found in this project` });
    expect(JSON.stringify(theirsTask.scores)).not.toContain('"width":320');
    expect(scoresOf(notMediaTask).conformance.error).toMatch(/failed its probe|not media/);
    expect(scoresOf(noMediaTask).conformance.error).toBe("the output has no field 'video'");
    expect(scoresOf(theirsTask)['vs-their-run'].error).toBeTruthy();
    expect(run.status).toBe('completed');
  });

  it('compares each item with its output in an earlier run (of another benchmark on the same dataset)', async () => {
    const { api } = await inNewProject(ctx.api);
    const [source, low, unrelated] = [await upload(api, clips.source), await upload(api, clips.low), await upload(api, clips.unrelated)];
    const dataset = await createDataset(api);
    await appendOk(api, dataset.id, [
      { input: 'low', metadata: { output: { video: { mediaId: low } } } },
      { input: 'unrelated', metadata: { output: { video: { mediaId: unrelated } } } },
    ]);
    // The baseline: a model (an http target) that generated the source clip for every item.
    server.targetOutput = { video: { mediaId: source } };
    const baseline = await benchmarkOnDataset(api, dataset.id, { type: 'http', url: server.url('/target') }, [
      { type: 'video_conformance', config: { field: 'video', expected: SPEC } },
    ]);
    const baselineRun = await runEnds(api, baseline, await startOk(api, baseline), 120_000);
    expect(baselineRun.scores.video_conformance).toEqual({ mean: 1, passRate: 1 });

    // The candidate: the dataset's outputs, each compared with the same item's output in the baseline run.
    const candidate = await benchmarkOnDataset(api, dataset.id, { type: 'dataset' }, [
      { name: 'vs-baseline', type: 'video_similarity', config: { field: 'video', method: 'ssim', reference: { runId: baselineRun.id } } },
    ]);
    const run = await runEnds(api, candidate, await startOk(api, candidate), 120_000);
    const [lowTask, unrelatedTask] = (await allTasks(api, candidate, run.id)).map((task) => scoresOf(task)['vs-baseline']);
    expect(lowTask).toMatchObject({ error: null, details: { method: 'ssim', reference: { runId: baselineRun.id } } });
    expect(lowTask.score).toBeGreaterThan(0.5);
    expect(lowTask.score).toBeLessThan(1);
    expect(unrelatedTask.score).toBeLessThan(0.5);
  });

  it('refuses unknown checks, methods and references at create, naming each field', async () => {
    const { api } = await inNewProject(ctx.api);
    const dataset = await createDataset(api);
    const answer = await api.post(BENCHMARKS, {
      name: 'bad video scorers',
      datasetId: dataset.id,
      target: { type: 'dataset' },
      scorers: [
        { type: 'video_qa', config: { checks: ['black', 'banding'], thresholds: { black: { minDurationMs: -5 } } } },
        { type: 'video_similarity', config: { method: 'vmaf', reference: { runId: 'yesterday' } } },
        { type: 'video_conformance', config: { expected: { fps: 0, aspect: '16:9' } } },
      ],
    });
    expectProblem(answer, 400, 'validation_failed', [
      'scorers[0].config.checks[1]',
      'scorers[0].config.thresholds.black.minDurationMs',
      'scorers[1].config.method',
      'scorers[1].config.reference.runId',
      'scorers[2].config.expected.fps',
      'scorers[2].config.expected.aspect',
    ]);
  });
});

async function benchmarkOnDataset(api: Api, datasetId: string, target: Json, scorers: Json[]): Promise<string> {
  const created = await api.post<Answer<'createBenchmark', 201>>(BENCHMARKS, { name: `video ${Date.now()}`, datasetId, target, scorers });
  if (created.status !== 201) throw new Error(`benchmark create answered ${created.status}: ${created.text}`);
  return created.body.id;
}
