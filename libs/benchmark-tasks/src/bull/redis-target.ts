import type { ConnectionOptions } from 'node:tls';

/**
 * Where a Redis client connects: a `redis://` / `rediss://` URL, or one with TLS settings
 * (a private CA), as redisConnection (@cinetrace/config) builds from REDIS_URL and REDIS_TLS_CA_FILE.
 */
export type RedisTarget = string | { url: string; tls?: ConnectionOptions };

export const redisUrlOf = (target: RedisTarget): string => (typeof target === 'string' ? target : target.url);

/** A client's own ioredis options plus the target's TLS settings: every connection (ioredis, BullMQ) gets the same. */
export function withRedisTls<T extends object>(target: RedisTarget, options: T): T & { tls?: ConnectionOptions } {
  return typeof target !== 'string' && target.tls ? { ...options, tls: target.tls } : options;
}
