import type { ConnectionOptions } from 'node:tls';
import { EnvironmentError } from './environment-error';
import { ReadFile, readFromDisk, readSettingFile } from './setting-file';

/** What every Redis client (ioredis, BullMQ) of an app is given. */
export interface RedisConnectionSettings {
  /** `redis://` or `rediss://` (TLS), with the username and password in it when Redis asks for them (ACL). */
  url: string;
  /** TLS settings for a `rediss://` URL: the CA to check the server against; undefined for `redis://`. */
  tls?: ConnectionOptions;
}

/**
 * REDIS_URL and REDIS_TLS_CA_FILE as every Redis connection of an app uses them. ioredis turns
 * `rediss://` into TLS with Node's public CAs; a private CA is added here.
 */
export function redisConnection(redisUrl: string, caFile?: string, read: ReadFile = readFromDisk): RedisConnectionSettings {
  const secure = /^rediss:\/\//i.test(redisUrl);
  if (!secure) {
    if (caFile) throw new EnvironmentError(['REDIS_TLS_CA_FILE: set, but REDIS_URL is not a rediss:// URL']);
    return { url: redisUrl };
  }
  const tls: ConnectionOptions = {};
  if (caFile) tls.ca = readSettingFile('REDIS_TLS_CA_FILE', caFile, read);
  return { url: redisUrl, tls };
}
