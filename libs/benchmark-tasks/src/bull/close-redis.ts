import type IORedis from 'ioredis';
import { withDeadline } from './deadline';

/**
 * Closes a connection without waiting on a Redis that is gone: QUIT (which lets pending
 * replies arrive) only on a live connection and for at most a second, otherwise a plain
 * disconnect. A queued QUIT on a connection that never came up would wait for ever.
 */
export async function closeRedis(redis: IORedis): Promise<void> {
  if (redis.status === 'ready') {
    try {
      await withDeadline(redis.quit(), 1000, () => new Error('QUIT timed out'));
      return;
    } catch {
      // fall through to the disconnect
    }
  }
  redis.disconnect();
}
