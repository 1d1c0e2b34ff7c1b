import type { ResolvedAuth } from './caller';

/**
 * A short-lived cache of resolved credentials, so a burst of requests costs one bus
 * round-trip. Only successes are cached; entries are keyed by the key's hash, never the key.
 */
export class AuthCache {
  private readonly entries = new Map<string, { value: ResolvedAuth; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): ResolvedAuth | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: ResolvedAuth, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(key, { value, expiresAt: now + this.ttlMs });
  }
}
