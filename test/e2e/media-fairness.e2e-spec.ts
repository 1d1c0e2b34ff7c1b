import { expect } from '@jest/globals';
import { Api, lavfi, makeClip } from '@cinetrace/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Answer, Problem } from './support/api-types';
import { inNewProject } from './support/prompts';
import { RawConnection } from './support/raw-http';
import { useStack } from './support/stack-hooks';
import { eventually } from './support/traces';

jest.setTimeout(120_000);

const MEDIA = '/api/v1/media';
const BOMBS = 8;

/**
 * "Image bombs": 8000×8000 PNGs of one colour, ~190 KB each and ~256 MB once decoded, each
 * made distinct by a byte after its end (the service keeps one media per content); and a
 * 64×64 PNG, another project's ordinary picture.
 */
function pictures(): { bombs: Buffer[]; small: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'media-fairness-'));
  try {
    const bomb = readFileSync(makeClip(dir, 'bomb.png', lavfi('color=c=black:size=8000x8000'), ['-frames:v', '1']));
    const small = readFileSync(makeClip(dir, 'small.png', lavfi('testsrc=size=64x64'), ['-frames:v', '1']));
    return { bombs: Array.from({ length: BOMBS }, (_, i) => Buffer.concat([bomb, Buffer.from([i])])), small };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const upload = async (api: Api, bytes: Buffer): Promise<string> => {
  const created = await api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: bytes, contentType: 'image/png' });
  expect(created.status).toBe(201);
  return created.body.id;
};

const statusOf = async (api: Api, id: string): Promise<Answer<'getMedia'>> => (await api.get<Answer<'getMedia'>>(`${MEDIA}/${id}`)).body;

let made: { bombs: Buffer[]; small: Buffer } | undefined;
/** Made once, at the first test that needs them. */
const madePictures = () => (made ??= pictures());

describe('Media probes shared fairly between projects (PROBE_CONCURRENCY 2: one project runs one probe at a time)', () => {
  // A limit above the bombs, so that they are decoded (each takes the probe half a second or more) and wait their turn.
  const ctx = useStack({ env: { PROBE_CONCURRENCY: '2', MEDIA_MAX_PIXELS: '100000000' } });

  it("probes another project's small picture while one project's image bombs wait", async () => {
    const { bombs, small } = madePictures();
    const flood = await inNewProject(ctx.api);
    const other = await inNewProject(ctx.api);
    const bombIds: string[] = [];
    for (const bomb of bombs) bombIds.push(await upload(flood.api, bomb));
    const smallId = await upload(other.api, small);

    const probed = await eventually(
      'the small picture probed',
      async () => {
        const media = await statusOf(other.api, smallId);
        return media.status === 'pending' ? undefined : media;
      },
      60_000,
      50,
    );
    const stillWaiting = (await Promise.all(bombIds.map((id) => statusOf(flood.api, id)))).filter((m) => m.status === 'pending').length;
    expect(probed).toMatchObject({ status: 'ready', probe: { width: 64, height: 64 } });
    // Before: the small picture waited behind every bomb (2 at a time), so none was left; now it waits for one at most.
    expect(stillWaiting).toBeGreaterThanOrEqual(BOMBS / 2);

    // And every bomb is probed in the end: nothing accepted is lost.
    await eventually(
      'every bomb probed',
      async () => ((await Promise.all(bombIds.map((id) => statusOf(flood.api, id)))).every((m) => m.status === 'ready') ? true : undefined),
      90_000,
      250,
    );
  });
});

describe('Media past MEDIA_MAX_PIXELS (default 40 million)', () => {
  const ctx = useStack();

  it('fails an image bomb at once, saying its size and the limit, and probes the next picture as usual', async () => {
    const { bombs, small } = madePictures();
    const { api } = await inNewProject(ctx.api);
    const bombId = await upload(api, bombs[0]);
    const smallId = await upload(api, small);
    const settled = (id: string) =>
      eventually(
        `media ${id} probed`,
        async () => {
          const media = await statusOf(api, id);
          return media.status === 'pending' ? undefined : media;
        },
        30_000,
        100,
      );
    expect(await settled(bombId)).toMatchObject({
      status: 'failed',
      probe: null,
      error: 'the picture is 8000×8000 (64,000,000 pixels), more than the 40,000,000 this service decodes (MEDIA_MAX_PIXELS)',
    });
    expect(await settled(smallId)).toMatchObject({ status: 'ready', probe: { width: 64, height: 64 } });
  });
});

describe('Uploads one project may have in flight (MEDIA_PROJECT_UPLOADS 1)', () => {
  const ctx = useStack({ env: { MEDIA_PROJECT_UPLOADS: '1' } });

  it("refuses a project's upload past its share (429 with Retry-After) before reading it, while another project's goes on, and takes it once one is stored", async () => {
    const { small } = madePictures();
    const flood = await inNewProject(ctx.api);
    const other = await inNewProject(ctx.api);
    const picture = (i: number) => Buffer.concat([small, Buffer.from(`#${i}`)]);

    // A's keys known to the gateway first (its auth cache): the held upload below is past the keys at once.
    expect((await flood.api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: picture(-1), contentType: 'image/png' })).status).toBe(201);

    // A's first upload, its body half sent: it holds A's one slot until the rest comes.
    let held = picture(0);
    const holdHalf = async (bytes: Buffer): Promise<RawConnection> => {
      const connection = await RawConnection.open(ctx.stack.baseUrl);
      await connection.write(
        `POST ${MEDIA} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ctx.stack.apiKey}\r\nX-Project-Key: ${flood.key}\r\n` +
          `Content-Type: image/png\r\nContent-Length: ${bytes.length}\r\n\r\n`,
      );
      await connection.write(bytes.subarray(0, Math.floor(bytes.length / 2)));
      return connection;
    };
    let slow = await holdHalf(held);
    await new Promise((resolve) => setTimeout(resolve, 100)); // the gateway reads what was sent

    // Once the gateway has taken it, A's next upload is refused unread (before: stored beside it).
    let attempt = 0;
    const refused = await eventually(
      "A's second upload refused",
      async () => {
        // The held upload reached the gateway only after a try had taken the slot, and was itself
        // refused (its bytes were sent, not yet read): hold a new one in its place, and try after
        // the next pause, once the gateway has read it.
        if (slow.receivedSize > 0) {
          slow.close();
          held = picture(10_000 + attempt);
          slow = await holdHalf(held);
          throw new Error('the held upload was refused; held another');
        }
        const answer = await flood.api.request<Problem>('POST', MEDIA, { raw: picture(++attempt), contentType: 'image/png' });
        if (answer.status !== 429) throw new Error(`answered ${answer.status}; the held upload has ${slow.receivedSize} bytes back, closed: ${slow.isClosed}`);
        return answer;
      },
      10_000,
      100,
    );
    expect(refused.body).toMatchObject({ status: 429, code: 'rate_limited', detail: expect.stringMatching(/MEDIA_PROJECT_UPLOADS/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Another project's upload is not held back by A's.
    const others = await other.api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: picture(1_000), contentType: 'image/png' });
    expect(others.status).toBe(201);

    // A's held upload completes and is stored (nothing accepted is lost); then A may upload again.
    await slow.write(held.subarray(Math.floor(held.length / 2)));
    const stored = await slow.response(30_000);
    expect(stored.status).toBe(201);
    expect((await statusOf(flood.api, (stored.body as { id: string }).id)).contentType).toBe('image/png');
    const again = await flood.api.request<Answer<'createMedia', 201>>('POST', MEDIA, { raw: picture(2_000), contentType: 'image/png' });
    expect(again.status).toBe(201);
  });
});
