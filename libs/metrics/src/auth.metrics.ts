import { Counter } from 'prom-client';
import { metricsRegistry } from './registry';

/** `hit`: answered from the cache; `miss`: asked project-service (or joined a lookup in flight). */
export const AUTH_CACHE_RESULTS = ['hit', 'miss'] as const;
export type AuthCacheResult = (typeof AUTH_CACHE_RESULTS)[number];

const lookups = new Counter({
  name: 'cinetrace_auth_cache_lookups_total',
  help: "Credential lookups in the gateway's auth cache, by result",
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

/** Called by the auth cache's owner at start: both series at 0 from then on (see startIngestSeries). */
export function startAuthCacheSeries(): void {
  for (const result of AUTH_CACHE_RESULTS) lookups.inc({ result }, 0);
}

export function countAuthCacheLookup(result: AuthCacheResult): void {
  lookups.inc({ result });
}
