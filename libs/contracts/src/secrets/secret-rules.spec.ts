import { hostAllowed, isSecretReference, SECRET_HOST_PATTERN } from './secret-rules';

describe('secret rules', () => {
  it('matches hosts exactly, or under a *. wildcard, never a look-alike', () => {
    const allowed = ['api.openai.com', '*.models.example.com'];
    expect(hostAllowed('api.openai.com', allowed)).toBe(true);
    expect(hostAllowed('API.OpenAI.com', allowed)).toBe(true);
    expect(hostAllowed('eu.models.example.com', allowed)).toBe(true);
    for (const host of ['models.example.com', 'evilmodels.example.com', 'api.openai.com.evil.example', 'xapi.openai.com', 'openai.com']) {
      expect(hostAllowed(host, allowed)).toBe(false);
    }
  });

  it('takes host names and bracketed IPv6 literals as allowed hosts, no schemes, ports or paths', () => {
    for (const ok of ['api.example.com', '*.example.com', '127.0.0.1', 'localhost', '[::1]']) expect(SECRET_HOST_PATTERN.test(ok)).toBe(true);
    for (const bad of ['https://api.example.com', 'api.example.com:443', 'api.example.com/v1', '*', '*.', 'a..b', '-a.com', 'API.example.com']) {
      expect(SECRET_HOST_PATTERN.test(bad)).toBe(false);
    }
  });

  it('recognises exactly { secret: "<valid name>" }', () => {
    expect(isSecretReference({ secret: 'OPENAI_API_KEY' })).toBe(true);
    for (const bad of [{ secret: '' }, { secret: 'a b' }, { secret: 'K', extra: 1 }, { env: 'PATH' }, 'K', null, [{ secret: 'K' }]]) {
      expect(isSecretReference(bad)).toBe(false);
    }
  });
});
