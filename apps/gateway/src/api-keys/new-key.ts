import { generateApiKey, hashApiKey, keyPreview } from '@cinetrace/auth';
import type { NewKeyDigest } from '@cinetrace/contracts';

/**
 * A new API key, made here at the edge: project-service receives only its digest (the
 * bus is Kafka's log in the distributed mode), and the key goes to the client alone.
 */
export function newKey(): { key: string; credential: NewKeyDigest } {
  const key = generateApiKey();
  return { key, credential: { keyHash: hashApiKey(key), preview: keyPreview(key) } };
}
