import IORedis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { dropRedisPrefix } from './redis-prefix';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe('dropRedisPrefix', () => {
  const redis = new IORedis(REDIS_URL);
  const prefix = `ct-test-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await redis.del(`${prefix}x:kept`);
    redis.disconnect();
  });

  it("deletes every key under the prefix, more than one SCAN page of them, and nothing of another prefix's", async () => {
    const keys = Array.from({ length: 2500 }, (_, i) => `${prefix}:queue:job-${i}`);
    for (let i = 0; i < keys.length; i += 500) await redis.mset(...keys.slice(i, i + 500).flatMap((key) => [key, '1']));
    await redis.set(`${prefix}x:kept`, '1');

    const dropped = await dropRedisPrefix(REDIS_URL, prefix);

    expect(dropped).toBe(2500);
    expect(await redis.exists(...keys.slice(0, 100))).toBe(0);
    expect(await redis.keys(`${prefix}:*`)).toEqual([]);
    expect(await redis.get(`${prefix}x:kept`)).toBe('1');
  });
});
