import { digestsEqual, generateApiKey, hashApiKey, keyPreview } from './api-keys';

describe('api keys', () => {
  it('generates distinct, long keys', () => {
    const a = generateApiKey();
    expect(a).toMatch(/^ct_[A-Za-z0-9_-]{43}$/);
    expect(generateApiKey()).not.toBe(a);
  });

  it('hashes deterministically and compares digests', () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toHaveLength(64);
    expect(digestsEqual(hashApiKey(key), hashApiKey(key))).toBe(true);
    expect(digestsEqual(hashApiKey(key), hashApiKey(`${key}x`))).toBe(false);
    expect(digestsEqual('', '')).toBe(false);
  });

  it('hashes as the keys stored so far were hashed: the SHA-256 of their UTF-8, in hex', () => {
    expect(hashApiKey('ct_é-key')).toBe('932dfe4ce2bfe6556ae5ff81fa7c5550f99a3165b60912f0cfc10658ac611adc');
  });

  it('previews without revealing the key', () => {
    expect(keyPreview('ct_abcdefghijkl')).toBe('ct_abcd…');
  });
});
