import { expect } from '@jest/globals';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Answer } from './support/api-types';
import { benchmarkOn, runEnds, startOk, tasksOf, type RunSummary } from './support/benchmarks';
import { type Json } from './support/datasets';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { eventually } from './support/traces';

jest.setTimeout(180_000);

const MEDIA = '/api/v1/media';
const SIZE = 'size=160x120:rate=12';

/** Two one-second clips that differ (the same bytes twice in a project would be one media), made by ffmpeg here. */
function makeClips(): [Buffer, Buffer] {
  const dir = mkdtempSync(join(tmpdir(), 'annotation-counts-e2e-'));
  try {
    const pattern = makeClip(dir, 'pattern.mp4', lavfi(`testsrc=${SIZE}:duration=1`), ['-pix_fmt', 'yuv420p']);
    const red = makeClip(dir, 'red.mp4', lavfi(`color=c=red:${SIZE}:duration=1`), ['-pix_fmt', 'yuv420p']);
    return [readFileSync(pattern), readFileSync(red)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Uploads a clip and waits for its probe (annotations need the duration). */
async function probedClip(api: Api, bytes: Buffer): Promise<string> {
  const created = await api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: bytes, contentType: 'video/mp4' });
  if (created.status !== 201 && created.status !== 200) throw new Error(`upload answered ${created.status}: ${created.text}`);
  const id = created.body.id;
  await eventually(`media ${id} probed`, async () => ((await api.get<Answer<'getMedia'>>(`${MEDIA}/${id}`)).body?.status === 'ready' ? true : undefined), 30_000, 200);
  return id;
}

async function annotate(api: Api, mediaId: string, ...labels: string[]): Promise<void> {
  for (const label of labels) {
    const created = await api.post(`${MEDIA}/${mediaId}/annotations`, { startMs: 0, endMs: 500, label });
    if (created.status !== 201) throw new Error(`annotation answered ${created.status}: ${created.text}`);
  }
}

/** A run over a `dataset` target whose items' outputs are `outputs`, ended; gives the ids. */
async function runOver(api: Api, outputs: unknown[]): Promise<{ benchmarkId: string; runId: string }> {
  const items: Json[] = outputs.map((output, i) => ({ input: { prompt: `shot ${i}` }, metadata: { output } }));
  const { benchmarkId } = await benchmarkOn(api, items, { scorers: [{ type: 'json_schema', config: { schema: { type: 'object' } } }] });
  const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId), 120_000);
  expect(run.status).toBe('completed');
  return { benchmarkId, runId: run.id };
}

async function summaryOf(api: Api, benchmarkId: string, runId?: string): Promise<RunSummary> {
  const page = await tasksOf(api, benchmarkId, runId ? { runId, limit: 1 } : { limit: 1 });
  expect(page.status).toBe(200);
  return page.body.summary!;
}

describe('Benchmarks: run summaries count the annotation labels of the media the outputs name', () => {
  const ctx = useStack();
  let clips: [Buffer, Buffer];
  beforeAll(() => {
    clips = makeClips();
  }, 60_000);

  it("counts nothing of another project's media an output names, while its owner's run counts them", async () => {
    const owner = await inNewProject(ctx.api);
    const attacker = await inNewProject(ctx.api);
    const theirs = await probedClip(owner.api, clips[0]);
    await annotate(owner.api, theirs, 'private', 'private', 'confidential');
    const mine = await probedClip(attacker.api, clips[1]);
    await annotate(attacker.api, mine, 'mine');

    // The attacker's outputs name the owner's media (at the top and nested) beside their own.
    const attack = await runOver(attacker.api, [{ mediaId: theirs }, { shots: [{ video: { mediaId: theirs } }, { mediaId: mine }] }]);
    expect((await summaryOf(attacker.api, attack.benchmarkId)).annotations).toEqual({ total: 1, labels: { mine: 1 }, labelsOmitted: 0, mediaOmitted: 0 });

    // The same id in the owner's own run counts: what the attacker saw was the scoping, not a miss.
    const own = await runOver(owner.api, [{ mediaId: theirs }]);
    expect((await summaryOf(owner.api, own.benchmarkId)).annotations).toEqual({ total: 3, labels: { private: 2, confidential: 1 }, labelsOmitted: 0, mediaOmitted: 0 });
    // And the owner's key cannot read the attacker's run at all.
    expect((await tasksOf(owner.api, attack.benchmarkId)).status).toBe(404);
  });

  it("counts each media's labels once per run, wherever the outputs name it, and follows annotations added after the run", async () => {
    const { api } = await inNewProject(ctx.api);
    const [pattern, red] = [await probedClip(api, clips[0]), await probedClip(api, clips[1])];
    await annotate(api, pattern, 'flicker', 'flicker', 'black frames');
    await annotate(api, red, 'flicker');

    const { benchmarkId, runId } = await runOver(api, [
      { mediaId: pattern },
      // Nested, and the first clip again: each media counts once.
      { video: { mediaId: red }, alternates: [{ mediaId: pattern }] },
      { caption: 'no media here' },
      // Not a media id: ignored.
      { mediaId: 'not-a-media-id' },
    ]);
    expect((await summaryOf(api, benchmarkId)).annotations).toEqual({ total: 4, labels: { flicker: 3, 'black frames': 1 }, labelsOmitted: 0, mediaOmitted: 0 });

    // Counted when read: a reviewer's later annotation shows in the same run's summary.
    await annotate(api, red, 'blur');
    expect((await summaryOf(api, benchmarkId, runId)).annotations).toEqual({ total: 5, labels: { flicker: 3, 'black frames': 1, blur: 1 }, labelsOmitted: 0, mediaOmitted: 0 });

    // A run whose outputs name no media counts zero, without asking media-service.
    const plain = await runOver(api, [{ caption: 'a fox' }]);
    expect((await summaryOf(api, plain.benchmarkId)).annotations).toEqual({ total: 0, labels: {}, labelsOmitted: 0, mediaOmitted: 0 });
  });
});
