import type { MediaView } from '@cinetrace/contracts';

/**
 * How long to wait before reading a pending media again, by how long it has been waited for:
 * a probe of a short clip settles in tens of milliseconds, a long one in seconds, and a read
 * costs little (a row by id), so early reads come often and later ones less so.
 */
export function nextReadInMs(waitedMs: number): number {
  if (waitedMs < 1000) return 5;
  if (waitedMs < 3000) return 50;
  return 250;
}

/**
 * `GET /media/{id}` with `Prefer: wait`: reads the media until it is no longer `pending`, or
 * `waitMs` has passed (then it answers the pending media as it is). Reads happen here, not in
 * media-service: a bus request held there for seconds would hold back the requests behind it.
 */
export async function untilSettled(read: () => Promise<MediaView>, waitMs: number, now: () => number = Date.now): Promise<MediaView> {
  const started = now();
  for (;;) {
    const media = await read();
    const waited = now() - started;
    if (media.status !== 'pending' || waited >= waitMs) return media;
    await new Promise((resolve) => setTimeout(resolve, Math.min(nextReadInMs(waited), waitMs - waited)));
  }
}
