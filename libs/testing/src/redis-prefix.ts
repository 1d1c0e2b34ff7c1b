import IORedis from 'ioredis';

/**
 * Deletes every key under `prefix:` on the Redis at `url`: what a stack's task queue left on a
 * Redis that other stacks and later runs share (BullMQ keeps finished jobs for an hour).
 */
export async function dropRedisPrefix(url: string, prefix: string): Promise<number> {
  const redis = new IORedis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  let dropped = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) dropped += await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return dropped;
}
