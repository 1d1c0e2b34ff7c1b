import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A secret value as stored: AES-256-GCM, its own random IV, and the id of the key that sealed it. */
export interface EncryptedValue {
  /** Which key encrypted it, so that a later key rotation can tell old rows from new ones. */
  keyId: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
export const SECRETS_KEY_BYTES = 32;

/**
 * Encrypts and decrypts secret values with one 256-bit key. `context` (e.g. the secret's
 * organization and id) is bound as additional data: a ciphertext copied onto another row
 * does not decrypt there.
 */
export class AtRestCipher {
  readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key must be ${SECRETS_KEY_BYTES} bytes`);
    this.keyId = keyIdOf(key);
  }

  encrypt(plaintext: string, context: string): EncryptedValue {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { keyId: this.keyId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') };
  }

  /** Throws when the value was sealed with another key, for another context, or altered. */
  decrypt(value: EncryptedValue, context: string): string {
    if (value.keyId !== this.keyId) throw new Error(`the value was encrypted with key ${value.keyId}, not with the configured key ${this.keyId}`);
    const decipher = createDecipheriv(ALGORITHM, this.key, Buffer.from(value.iv, 'base64'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(value.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(value.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  }
}

/** A short public fingerprint of the key (a hash of it, never the key): names it in rows and errors. */
function keyIdOf(key: Buffer): string {
  return `k1-${createHash('sha256').update('cinetrace secrets key id\0').update(key).digest('hex').slice(0, 12)}`;
}
