import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AtRestCipher } from './at-rest-cipher';
import { isReplyPublicKey, ReplyKeyPair, sealFor } from './sealed-reply';
import { parseSecretsKey, secretsKeyFromFile, SECRETS_KEY_FILE } from './secrets-key';

const VALUE = 'sk-live-0123456789abcdef';

describe('AtRestCipher', () => {
  const cipher = new AtRestCipher(randomBytes(32));

  it('round-trips a value, with a fresh IV each time and no plaintext in what is stored', () => {
    const a = cipher.encrypt(VALUE, 'org_1/sec_1');
    const b = cipher.encrypt(VALUE, 'org_1/sec_1');
    expect(cipher.decrypt(a, 'org_1/sec_1')).toBe(VALUE);
    expect(a.iv).not.toBe(b.iv);
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(JSON.stringify(a)).not.toContain(VALUE);
    expect(Buffer.from(a.ciphertext, 'base64').toString('utf8')).not.toContain('sk-live');
    expect(a.keyId).toBe(cipher.keyId);
  });

  it('refuses another key, another context and an altered ciphertext', () => {
    const stored = cipher.encrypt(VALUE, 'org_1/sec_1');
    expect(() => new AtRestCipher(randomBytes(32)).decrypt(stored, 'org_1/sec_1')).toThrow(/encrypted with key k1-/);
    // The same key id but another key (a row's key id forged): the tag check still fails.
    expect(() => new AtRestCipher(randomBytes(32)).decrypt({ ...stored, keyId: new AtRestCipher(randomBytes(32)).keyId }, 'x')).toThrow();
    expect(() => cipher.decrypt(stored, 'org_2/sec_1')).toThrow();
    const flipped = Buffer.from(stored.ciphertext, 'base64');
    flipped[0] ^= 1;
    expect(() => cipher.decrypt({ ...stored, ciphertext: flipped.toString('base64') }, 'org_1/sec_1')).toThrow();
  });

  it('takes only 32-byte keys', () => {
    expect(() => new AtRestCipher(randomBytes(16))).toThrow(/32 bytes/);
  });
});

describe('SECRETS_KEY', () => {
  it('reads 64 hex digits or base64 of 32 bytes, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(parseSecretsKey(randomBytes(16).toString('base64'))).toBeUndefined();
    expect(parseSecretsKey('change-me')).toBeUndefined();
    expect(parseSecretsKey('')).toBeUndefined();
  });

  it('is generated once into <DATA_DIR>/secrets-key with mode 0600, then read back', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secrets-key-'));
    try {
      const first = secretsKeyFromFile(dir);
      const file = path.join(dir, SECRETS_KEY_FILE);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(secretsKeyFromFile(dir)).toEqual(first);
      fs.writeFileSync(file, 'garbage');
      expect(() => secretsKeyFromFile(dir)).toThrow(/does not hold a 32-byte key/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('sealed replies', () => {
  it('open only for the requester, only for the question asked', () => {
    const requester = new ReplyKeyPair();
    const sealed = sealFor(requester.publicKey, VALUE, 'OPENAI/api.example.com');
    expect(JSON.stringify(sealed)).not.toContain(VALUE);
    expect(requester.open(sealed, 'OPENAI/api.example.com')).toBe(VALUE);
    expect(() => new ReplyKeyPair().open(sealed, 'OPENAI/api.example.com')).toThrow();
    expect(() => requester.open(sealed, 'OPENAI/evil.example.com')).toThrow();
    expect(() => requester.open({ ...sealed, ciphertext: sealed.ciphertext.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) }, 'OPENAI/api.example.com')).toThrow();
  });

  it('differ each time for the same value and key', () => {
    const requester = new ReplyKeyPair();
    const a = sealFor(requester.publicKey, VALUE, 'c');
    const b = sealFor(requester.publicKey, VALUE, 'c');
    expect(a.ciphertext).not.toBe(b.ciphertext);
    expect(a.senderKey).not.toBe(b.senderKey);
  });

  it('open with a pair derived from a key, the same for the same key and purpose only', () => {
    const key = randomBytes(32);
    const intake = ReplyKeyPair.derivedFrom(key, 'secret intake');
    expect(ReplyKeyPair.derivedFrom(key, 'secret intake').publicKey).toBe(intake.publicKey);
    expect(ReplyKeyPair.derivedFrom(key, 'other purpose').publicKey).not.toBe(intake.publicKey);
    expect(ReplyKeyPair.derivedFrom(randomBytes(32), 'secret intake').publicKey).not.toBe(intake.publicKey);
    const sealed = sealFor(intake.publicKey, VALUE, 'org_1');
    expect(ReplyKeyPair.derivedFrom(key, 'secret intake').open(sealed, 'org_1')).toBe(VALUE);
    expect(() => ReplyKeyPair.derivedFrom(randomBytes(32), 'secret intake').open(sealed, 'org_1')).toThrow();
  });

  it('recognise a reply key, and refuse anything else', () => {
    expect(isReplyPublicKey(new ReplyKeyPair().publicKey)).toBe(true);
    expect(isReplyPublicKey('not a key')).toBe(false);
    expect(isReplyPublicKey(42)).toBe(false);
    expect(() => sealFor('AAAA', VALUE, 'c')).toThrow();
  });
});
