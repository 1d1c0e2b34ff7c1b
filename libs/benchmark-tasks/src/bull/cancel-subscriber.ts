import IORedis from 'ioredis';
import { closeRedis } from './close-redis';
import { withDeadline } from './deadline';
import { RedisOutageLog } from './redis-outage-log';
import { RedisTarget, redisUrlOf, withRedisTls } from './redis-target';

/**
 * Listens on the cancel channel on a connection of its own (a subscribed connection can
 * do nothing else) and hands each run id named there to `onCancel`. ioredis
 * re-subscribes by itself after a reconnect.
 */
export class CancelSubscriber {
  private readonly redis: IORedis;

  constructor(
    redis: RedisTarget,
    private readonly channel: string,
    private readonly onCancel: (runId: string) => void,
    outage: RedisOutageLog,
  ) {
    // Commands wait for a reconnect rather than fail: a subscription must outlive an outage.
    this.redis = new IORedis(redisUrlOf(redis), withRedisTls(redis, { connectTimeout: 3000, maxRetriesPerRequest: null }));
    this.redis.on('error', (err) => outage.error(err));
    this.redis.on('ready', () => outage.ready());
    this.redis.on('message', (channel: string, message: string) => {
      if (channel === this.channel && message) this.onCancel(message);
    });
  }

  /** Resolves once subscribed; fails if Redis has not answered within `timeoutMs` (reconnects included). */
  async start(timeoutMs: number): Promise<void> {
    await withDeadline(this.redis.subscribe(this.channel), timeoutMs, () => new Error(`Redis did not answer within ${timeoutMs} ms`));
  }

  /** A round trip to Redis (PING is allowed in subscriber mode); maxRetriesPerRequest is null, so the caller bounds it. */
  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
  }
}
