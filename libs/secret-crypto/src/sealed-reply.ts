import { createCipheriv, createDecipheriv, createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, hkdfSync, KeyObject, randomBytes } from 'node:crypto';

/**
 * A secret value on its way over the bus, readable only by the holder of the recipient key:
 * the bus (Kafka's log in the distributed mode) holds this ciphertext, never the value. X25519 between the
 * requester's one-use key and one the sender makes for this reply, HKDF-SHA256, AES-256-GCM.
 */
export interface SealedValue {
  /** The sender's one-use X25519 public key, base64url of its raw 32 bytes. */
  senderKey: string;
  salt: string;
  iv: string;
  tag: string;
  ciphertext: string;
}

const INFO = Buffer.from('cinetrace sealed secret v1');

/** PKCS#8 DER of an X25519 private key, up to its 32 raw bytes (RFC 8410). */
const X25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');

/**
 * An X25519 key pair that opens what was sealed for its public key. A requester makes a
 * one-use pair per request (new ReplyKeyPair()); project-service derives a lasting one from
 * its secrets key (ReplyKeyPair.derivedFrom), so every replica opens what the gateway seals.
 */
export class ReplyKeyPair {
  private readonly privateKey: KeyObject;
  readonly publicKey: string;

  constructor(privateKey?: KeyObject) {
    this.privateKey = privateKey ?? generateKeyPairSync('x25519').privateKey;
    this.publicKey = rawPublicKey(createPublicKey(this.privateKey));
  }

  /** The same pair for the same `key` and `purpose`; nothing of `key` can be learnt from the public half. */
  static derivedFrom(key: Buffer, purpose: string): ReplyKeyPair {
    const seed = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), Buffer.from(`cinetrace ${purpose}`), 32));
    return new ReplyKeyPair(createPrivateKey({ key: Buffer.concat([X25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' }));
  }

  /** Throws when the reply was not sealed for this key pair or was altered on the way. */
  open(sealed: SealedValue, context: string): string {
    const key = deriveKey(this.privateKey, publicKeyFrom(sealed.senderKey), Buffer.from(sealed.salt, 'base64url'), context);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/**
 * Seals `value` for the holder of `recipientKey` (a ReplyKeyPair's publicKey). `context`
 * (what was asked: the secret's name and host) is bound in, so a reply cannot be replayed
 * as the answer to another question. Throws on a key that is not an X25519 public key.
 */
export function sealFor(recipientKey: string, value: string, context: string): SealedValue {
  const recipient = publicKeyFrom(recipientKey);
  const own = generateKeyPairSync('x25519');
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(own.privateKey, recipient, salt, context), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return {
    senderKey: rawPublicKey(own.publicKey),
    salt: salt.toString('base64url'),
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    ciphertext: ciphertext.toString('base64url'),
  };
}

/** Whether `text` is an X25519 public key as ReplyKeyPair sends it. */
export function isReplyPublicKey(text: unknown): boolean {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(text)) return false;
  try {
    publicKeyFrom(text);
    return true;
  } catch {
    return false;
  }
}

function deriveKey(privateKey: KeyObject, publicKey: KeyObject, salt: Buffer, context: string): Buffer {
  const shared = diffieHellman({ privateKey, publicKey });
  return Buffer.from(hkdfSync('sha256', shared, salt, Buffer.concat([INFO, Buffer.from(`\0${context}`, 'utf8')]), 32));
}

function rawPublicKey(key: KeyObject): string {
  return (key.export({ format: 'jwk' }) as { x: string }).x;
}

function publicKeyFrom(raw: string): KeyObject {
  return createPublicKey({ key: { kty: 'OKP', crv: 'X25519', x: raw }, format: 'jwk' });
}
