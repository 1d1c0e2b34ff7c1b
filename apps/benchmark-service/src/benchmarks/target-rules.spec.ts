import { validateTarget } from './target-rules';

const paths = (raw: Record<string, unknown>, allowPrivate = false) => {
  const check = validateTarget(raw, { allowPrivate });
  return check.ok ? [] : check.errors.map((e) => e.path);
};

describe('validateTarget', () => {
  it('accepts each type with its own fields', () => {
    expect(paths({ type: 'dataset' })).toEqual([]);
    expect(paths({ type: 'http', url: 'https://models.example.com/v1/render', headers: { 'x-team': 'video' }, timeoutMs: 5000 })).toEqual([]);
    expect(paths({ type: 'openai_chat', baseUrl: 'https://api.example.com/v1', model: 'gpt-x', apiKeyEnv: 'OPENAI_API_KEY' })).toEqual([]);
    expect(paths({ type: 'dataset', promptId: 'prm_01jh8z6v9q3m2r7x5c4b1n0k8d', promptVersion: 2 })).toEqual([]);
  });

  it('names each offending field', () => {
    expect(paths({ type: 'video' })).toEqual(['target.type']);
    expect(paths({ type: 'dataset', url: 'https://x.example.com' })).toEqual(['target.url']);
    expect(paths({ type: 'http', headers: { Authorization: 'Bearer sk-1' }, timeoutMs: 10 })).toEqual([
      'target.url',
      'target.headers.Authorization',
      'target.timeoutMs',
    ]);
    expect(paths({ type: 'openai_chat', baseUrl: 'ftp://x.example.com', apiKeyEnv: 'lower' })).toEqual([
      'target.baseUrl',
      'target.model',
      'target.apiKeyEnv',
    ]);
    expect(paths({ type: 'dataset', promptVersion: 1 })).toEqual(['target.promptVersion']);
  });

  it('refuses private addresses unless they are allowed', () => {
    expect(paths({ type: 'http', url: 'http://127.1:8080/render' })).toEqual(['target.url']);
    expect(paths({ type: 'http', url: 'http://[::ffff:127.0.0.1]/' })).toEqual(['target.url']);
    expect(paths({ type: 'http', url: 'http://127.1:8080/render' }, true)).toEqual([]);
  });
});
