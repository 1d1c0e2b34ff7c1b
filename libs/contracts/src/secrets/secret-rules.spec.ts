import { isSecretReference, originAllowed, SECRET_HOST_PATTERN, secretOrigin } from './secret-rules';

const https = { allowPlainHttp: false };
const dev = { allowPlainHttp: true };

describe('secret rules', () => {
  it('matches hosts exactly, or under a *. wildcard, never a look-alike', () => {
    const allowed = ['api.openai.com', '*.models.example.com'];
    expect(originAllowed(secretOrigin('https://api.openai.com/v1')!, allowed, https)).toBe(true);
    expect(originAllowed(secretOrigin('https://API.OpenAI.com')!, allowed, https)).toBe(true);
    expect(originAllowed(secretOrigin('https://eu.models.example.com')!, allowed, https)).toBe(true);
    for (const host of ['models.example.com', 'evilmodels.example.com', 'api.openai.com.evil.example', 'xapi.openai.com', 'openai.com']) {
      expect(originAllowed(secretOrigin(`https://${host}/`)!, allowed, https)).toBe(false);
    }
  });

  it('reads a bare host as https on 443: never plain http, never another port', () => {
    const allowed = ['api.example.com', '*.models.example.com'];
    for (const url of ['http://api.example.com/', 'https://api.example.com:8443/', 'http://api.example.com:443/', 'https://eu.models.example.com:8443/']) {
      expect([url, originAllowed(secretOrigin(url)!, allowed, https)]).toEqual([url, false]);
      expect([url, originAllowed(secretOrigin(url)!, allowed, dev)]).toEqual([url, false]);
    }
    expect(originAllowed(secretOrigin('https://api.example.com:443/v1')!, allowed, https)).toBe(true);
  });

  it('binds the scheme and port an entry spells out, plain http only under the local-development setting', () => {
    const allowed = ['https://api.example.com:8443', 'http://localhost:8080', 'http://[::1]'];
    expect(originAllowed(secretOrigin('https://api.example.com:8443/x')!, allowed, https)).toBe(true);
    expect(originAllowed(secretOrigin('https://api.example.com/x')!, allowed, https)).toBe(false);
    expect(originAllowed(secretOrigin('http://localhost:8080/x')!, allowed, https)).toBe(false);
    expect(originAllowed(secretOrigin('http://localhost:8080/x')!, allowed, dev)).toBe(true);
    expect(originAllowed(secretOrigin('http://localhost:8081/x')!, allowed, dev)).toBe(false);
    expect(originAllowed(secretOrigin('https://localhost:8080/x')!, allowed, dev)).toBe(false);
    expect(originAllowed(secretOrigin('http://[::1]/x')!, allowed, dev)).toBe(true);
    // No entries: any https destination; http only under the setting.
    expect(originAllowed(secretOrigin('https://anywhere.example:9443')!, [], https)).toBe(true);
    expect(originAllowed(secretOrigin('http://anywhere.example')!, [], https)).toBe(false);
    expect(originAllowed(secretOrigin('http://anywhere.example')!, [], dev)).toBe(true);
  });

  it('spells an origin with its port, for http and https URLs only', () => {
    expect(secretOrigin('https://Api.Example.com/v1?x=1')).toBe('https://api.example.com:443');
    expect(secretOrigin('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(secretOrigin('http://[::1]/')).toBe('http://[::1]:80');
    expect(secretOrigin('ftp://api.example.com/')).toBeUndefined();
    expect(secretOrigin('not a url')).toBeUndefined();
  });

  it('takes hosts, optionally with a scheme and port, as allowed hosts; no paths or other schemes', () => {
    const good = [
      'api.example.com',
      '*.example.com',
      '127.0.0.1',
      'localhost',
      '[::1]',
      'https://api.example.com',
      'api.example.com:8443',
      'http://localhost:8080',
      'https://[::1]:8443',
    ];
    for (const ok of good) expect([ok, SECRET_HOST_PATTERN.test(ok)]).toEqual([ok, true]);
    const bad = [
      'https://api.example.com/',
      'api.example.com/v1',
      'ftp://api.example.com',
      'api.example.com:0',
      'api.example.com:65536',
      'api.example.com:',
      '*',
      '*.',
      'a..b',
      '-a.com',
      'API.example.com',
      'https://',
    ];
    for (const no of bad) expect([no, SECRET_HOST_PATTERN.test(no)]).toEqual([no, false]);
  });

  it('recognises exactly { secret: "<valid name>" }', () => {
    expect(isSecretReference({ secret: 'OPENAI_API_KEY' })).toBe(true);
    for (const bad of [{ secret: '' }, { secret: 'a b' }, { secret: 'K', extra: 1 }, { env: 'PATH' }, 'K', null, [{ secret: 'K' }]]) {
      expect(isSecretReference(bad)).toBe(false);
    }
  });
});
