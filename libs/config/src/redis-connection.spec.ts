import { redisConnection } from './redis-connection';

const read = (path: string): Buffer => {
  if (path !== '/ca.pem') throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return Buffer.from('CA');
};

describe('redisConnection', () => {
  it('redis:// is plaintext: no TLS settings', () => {
    expect(redisConnection('redis://u:p@r:6379/0', undefined, read)).toEqual({ url: 'redis://u:p@r:6379/0' });
  });

  it('rediss:// is TLS, with the public CAs unless a CA file is given', () => {
    expect(redisConnection('rediss://r:6380', undefined, read)).toEqual({ url: 'rediss://r:6380', tls: {} });
    expect(String(redisConnection('rediss://default:pw@r:6380', '/ca.pem', read).tls?.ca)).toBe('CA');
  });

  it('refuses a CA file for a plaintext URL, and an unreadable one, naming the variable', () => {
    expect(() => redisConnection('redis://r', '/ca.pem', read)).toThrow('REDIS_TLS_CA_FILE: set, but REDIS_URL is not a rediss:// URL');
    expect(() => redisConnection('rediss://r', '/missing', read)).toThrow('REDIS_TLS_CA_FILE: cannot read /missing (ENOENT)');
  });
});
