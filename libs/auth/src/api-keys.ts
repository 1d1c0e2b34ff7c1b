import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new organization API key: 32 random bytes, base64url, with a recognisable prefix. */
export function generateApiKey(): string {
  return `ct_${randomBytes(32).toString('base64url')}`;
}

/**
 * Keys are stored as their SHA-256 only. Keys are long random strings, so a fast hash
 * is enough (as for GitHub and Stripe tokens); the plain key is shown once, at creation.
 * Every request hashes its key, so by the one-shot `hash`, several times cheaper than a Hash object.
 */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** Constant-time comparison of two hex digests. */
export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}

/** The shown part of a key (`ct_AbCd…`), enough to recognise it in a list, useless to an attacker. */
export function keyPreview(key: string): string {
  return `${key.slice(0, 7)}…`;
}
