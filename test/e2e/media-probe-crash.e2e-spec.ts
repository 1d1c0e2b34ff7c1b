import { expect } from '@jest/globals';
import { e2eMode, lavfi, makeClip, mediaToolPath } from '@cinetrace/testing';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Answer } from './support/api-types';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { eventually } from './support/traces';

jest.setTimeout(240_000);

const MEDIA = '/api/v1/media';
/** How long the slowed ffprobe waits before probing: the window in which the test kills its process. */
const PROBE_DELAY_S = 4;

/**
 * An ffprobe that notes each start (a file named by its pid in `marks`) and waits a while
 * before running the real one on the same arguments and input.
 */
function slowFfprobe(dir: string): { path: string; starts: () => number } {
  const marks = join(dir, 'probe-starts');
  const path = join(dir, 'slow-ffprobe');
  mkdirSync(marks);
  writeFileSync(path, `#!/bin/sh\ntouch "${marks}/$$"\nsleep ${PROBE_DELAY_S}\nexec '${mediaToolPath('ffprobe')}' "$@"\n`);
  chmodSync(path, 0o755);
  return { path, starts: () => readdirSync(marks).length };
}

async function waitUntil(what: string, condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${timeoutMs} ms`);
    await sleep(50);
  }
}

// What each mode loses mid-probe: all-in-one its one process (media still pending at the next
// start is probed again), distributed the media-service holding the BullMQ job (taken up again
// once its lock, PROBE_LOCK_MS, lapses).
describe(`A probe survives its process killed mid-probe (${e2eMode()})`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'media-crash-'));
  const ffprobe = slowFfprobe(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // Its own stack: the tests kill it.
  const ctx = useStack({ own: true, env: { FFPROBE_PATH: ffprobe.path, PROBE_LOCK_MS: '2000' } });

  it('ends ready with the probe after SIGKILL and a restart', async () => {
    const { api } = await inNewProject(ctx.api);
    const clip = readFileSync(makeClip(dir, 'clip.mp4', lavfi('testsrc=size=320x240:rate=24:duration=2'), ['-pix_fmt', 'yuv420p']));
    const created = await api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: clip, contentType: 'video/mp4' });
    expect(created.body.status).toBe('pending');

    await waitUntil('the probe started', () => ffprobe.starts() >= 1, 30_000);
    if (e2eMode() === 'all-in-one') {
      await ctx.stack.kill('SIGKILL');
      await ctx.stack.restart();
    } else {
      await ctx.stack.killApp('media-service', 'SIGKILL');
      await ctx.stack.startApp('media-service');
    }

    const settled = await eventually(
      `media ${created.body.id} probed after the crash`,
      async () => {
        const got = await api.get<Answer<'getMedia'>>(`${MEDIA}/${created.body.id}`);
        return got.status === 200 && got.body.status !== 'pending' ? got.body : undefined;
      },
      90_000,
      250,
    );
    expect(settled).toMatchObject({ status: 'ready', error: null, probe: { width: 320, height: 240, fps: 24 } });
    // The probe ran again: the first was killed before it could record anything.
    expect(ffprobe.starts()).toBeGreaterThanOrEqual(2);
  });
});
