import { countAuthCacheLookup, startAuthCacheSeries } from '@cinetrace/metrics';
import type { ResolvedAuth } from './caller';

/** Share of an entry's lifetime after which a request refreshes it in the background. */
const REFRESH_AFTER = 0.8;

interface Entry {
  value: ResolvedAuth;
  refreshAt: number;
  expiresAt: number;
}

/**
 * A short-lived cache of resolved credentials, so a burst of requests costs one bus
 * round-trip. Only successes are cached; entries are keyed by the key's hash, never the key.
 *
 * Requests that miss together share one lookup, and an entry in the last fifth of its
 * lifetime is refreshed in the background while it is still served: under steady traffic
 * no request waits for a lookup once the first has, and 64 connections do not send 64
 * lookups the moment an entry expires. Nothing is served past its lifetime, so a revoked
 * key stops working within the TTL, as before.
 */
export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  private readonly lookups = new Map<string, Promise<ResolvedAuth>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    startAuthCacheSeries();
  }

  /** The cached answer for `key`, else `load`'s (one load at a time per key). */
  async resolve(key: string, load: () => Promise<ResolvedAuth>): Promise<ResolvedAuth> {
    if (this.ttlMs <= 0) {
      countAuthCacheLookup('miss');
      return load();
    }
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now) {
      countAuthCacheLookup('hit');
      if (entry.refreshAt <= now && !this.lookups.has(key)) {
        // Served until it expires; the refresh replaces it (or, failing, drops it).
        this.lookup(key, load).catch(() => undefined);
      }
      return entry.value;
    }
    if (entry) this.entries.delete(key);
    countAuthCacheLookup('miss');
    return this.lookups.get(key) ?? this.lookup(key, load);
  }

  private lookup(key: string, load: () => Promise<ResolvedAuth>): Promise<ResolvedAuth> {
    const pending = load().then(
      (value) => {
        this.store(key, value);
        return value;
      },
      (err: unknown) => {
        // A key found wrong is wrong now; an unreachable project-service would fail the
        // next request within a second anyway: either way, stop serving the old answer.
        this.entries.delete(key);
        throw err;
      },
    );
    const settled = () => void this.lookups.delete(key);
    pending.then(settled, settled);
    this.lookups.set(key, pending);
    return pending;
  }

  private store(key: string, value: ResolvedAuth): void {
    const now = Date.now();
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, refreshAt: now + this.ttlMs * REFRESH_AFTER, expiresAt: now + this.ttlMs });
  }
}
