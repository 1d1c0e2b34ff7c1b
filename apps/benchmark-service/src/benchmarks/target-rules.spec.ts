import { expect } from '@jest/globals';
import { validateTarget } from './target-rules';

const paths = (raw: Record<string, unknown>, allowPrivate = false) => {
  const check = validateTarget(raw, { allowPrivate });
  return check.ok ? [] : check.errors.map((e) => e.path);
};

describe('validateTarget', () => {
  it('accepts each type with its own fields', () => {
    expect(paths({ type: 'dataset' })).toEqual([]);
    expect(paths({ type: 'http', url: 'https://models.example.com/v1/render', headers: { 'x-team': 'video' }, timeoutMs: 5000 })).toEqual([]);
    expect(paths({ type: 'openai_chat', baseUrl: 'https://api.example.com/v1', model: 'gpt-x', apiKey: { secret: 'OPENAI_API_KEY' } })).toEqual([]);
    expect(paths({ type: 'http', url: 'https://models.example.com/v1', apiKey: { secret: 'models.prod-key_2' }, headers: { 'X-Api-Key': { secret: 'k' } } })).toEqual([]);
    expect(paths({ type: 'dataset', promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', promptVersion: 2 })).toEqual([]);
    expect(paths({ type: 'dataset', promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', promptRelease: 'staging' })).toEqual([]);
  });

  it('names each offending field', () => {
    expect(paths({ type: 'video' })).toEqual(['target.type']);
    expect(paths({ type: 'dataset', url: 'https://x.example.com' })).toEqual(['target.url']);
    expect(paths({ type: 'http', headers: { Authorization: 'Bearer sk-1' }, timeoutMs: 10 })).toEqual(['target.url', 'target.headers.Authorization', 'target.timeoutMs']);
    expect(paths({ type: 'openai_chat', baseUrl: 'ftp://x.example.com', apiKey: 'sk-plain' })).toEqual(['target.baseUrl', 'target.model', 'target.apiKey']);
    expect(paths({ type: 'dataset', promptVersion: 1 })).toEqual(['target.promptVersion']);
    expect(paths({ type: 'dataset', promptRelease: 'staging' })).toEqual(['target.promptRelease']);
    expect(paths({ type: 'dataset', promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', promptRelease: 'Staging!' })).toEqual(['target.promptRelease']);
    expect(paths({ type: 'dataset', promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', promptVersion: 1, promptRelease: 'staging' })).toEqual(['target.promptRelease']);
  });

  it('refuses any field naming a server environment variable, whatever its value', () => {
    for (const name of ['BOOTSTRAP_API_KEY', 'DATABASE_URL', 'PATH', 'OPENAI_API_KEY']) {
      const check = validateTarget({ type: 'openai_chat', baseUrl: 'https://api.example.com/v1', model: 'gpt-x', apiKeyEnv: name }, { allowPrivate: false });
      expect(check).toEqual({ ok: false, errors: [{ path: 'target.apiKeyEnv', message: expect.stringMatching(/server environment variable.*secret/) }] });
    }
    expect(paths({ type: 'http', url: 'https://x.example.com', apiKeyEnv: 'K' })).toEqual(['target.apiKeyEnv']);
  });

  it('takes credentials only as { secret } references to a valid name', () => {
    const target = (apiKey: unknown) => ({ type: 'openai_chat', baseUrl: 'https://api.example.com/v1', model: 'gpt-x', apiKey });
    for (const bad of ['sk-plain', { secret: '' }, { secret: 'a b' }, { secret: 'x'.repeat(101) }, { secret: 'K', env: 'PATH' }, { name: 'K' }, null, ['K']]) {
      expect(paths(target(bad))).toEqual(['target.apiKey']);
    }
  });

  it('refuses credential headers as plain strings, and takes them (or any header) from a secret', () => {
    const http = (headers: Record<string, unknown>) => ({ type: 'http', url: 'https://x.example.com', headers });
    for (const name of ['Authorization', 'proxy-authorization', 'Cookie', 'X-Api-Key', 'api-key', 'X-Auth-Token', 'x-goog-api-key']) {
      expect(paths(http({ [name]: 'Bearer sk-1' }))).toEqual([`target.headers.${name}`]);
      expect(paths(http({ [name]: { secret: 'MODEL_KEY' } }))).toEqual([]);
    }
    expect(paths(http({ 'x-team': { secret: 'TEAM' }, 'x-mode': 'fast' }))).toEqual([]);
    expect(paths(http({ 'x-team': { secret: 'bad name' } }))).toEqual(['target.headers.x-team']);
  });

  it('refuses private addresses unless they are allowed', () => {
    expect(paths({ type: 'http', url: 'http://127.1:8080/render' })).toEqual(['target.url']);
    expect(paths({ type: 'http', url: 'http://[::ffff:127.0.0.1]/' })).toEqual(['target.url']);
    expect(paths({ type: 'http', url: 'http://127.1:8080/render' }, true)).toEqual([]);
  });
});
