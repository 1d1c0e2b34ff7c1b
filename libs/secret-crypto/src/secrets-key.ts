import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SECRETS_KEY_BYTES } from './at-rest-cipher';

export const SECRETS_KEY_FILE = 'secrets-key';

/** SECRETS_KEY as 32 bytes, given as 64 hex digits or base64 (either alphabet); undefined when it is neither. */
export function parseSecretsKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return undefined;
  const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return bytes.length === SECRETS_KEY_BYTES ? bytes : undefined;
}

/**
 * The key kept in `<dataDir>/secrets-key` (0600), generated there on first use: the
 * all-in-one mode's default when SECRETS_KEY is unset, as the bootstrap key file is.
 * Throws, naming the file (never its content), when it holds no usable key.
 */
export function secretsKeyFromFile(dataDir: string): Buffer {
  const file = path.resolve(dataDir, SECRETS_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    try {
      // 'wx': two processes starting at once cannot both write a key; the loser reads the winner's.
      fs.writeFileSync(file, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  const key = parseSecretsKey(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`${file} does not hold a 32-byte key (base64 or hex)`);
  return key;
}
