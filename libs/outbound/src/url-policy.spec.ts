import { checkOutboundUrl } from './url-policy';

const strict = { allowPrivate: false };

describe('checkOutboundUrl', () => {
  it.each([
    '127.0.0.1',
    '127.1',
    '0x7f.1',
    '2130706433',
    '017700000001',
    '0177.0.0.1',
    '127.0.0.1.',
    '[::1]',
    '[::ffff:127.0.0.1]',
    '[::ffff:7f00:1]',
    '[0:0:0:0:0:ffff:7f00:1]',
    '169.254.169.254',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '0',
    '[fe80::1]',
    '[fc00::1]',
    '[::]',
    'localhost',
    'LOCALHOST.',
    'foo.localhost',
    'printer.local',
    'metadata.google.internal',
    'router.home.arpa',
    'intranet',
  ])('refuses the private host %s', (host) => {
    for (const scheme of ['http', 'https']) {
      expect(checkOutboundUrl(`${scheme}://${host}:8080/v1`, strict)).toEqual({ ok: false, message: 'must not point to a private, loopback or link-local address' });
    }
  });

  it.each(['8.8.8.8', '93.184.216.34', '[2606:4700::1111]', 'example.com', 'api.openai.com.'])('accepts the public host %s', (host) => {
    const check = checkOutboundUrl(`https://${host}/v1/chat?x=1`, strict);
    expect(check.ok).toBe(true);
    expect(check.ok && check.url.pathname).toBe('/v1/chat');
  });

  it('accepts private hosts when allowed, for local development', () => {
    for (const url of ['http://localhost:3000/', 'http://127.1/', 'http://[::1]:8080/', 'http://10.0.0.1/']) {
      expect(checkOutboundUrl(url, { allowPrivate: true }).ok).toBe(true);
    }
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://example.com/', 'javascript:alert(1)', 'data:application/json,{}', 'ws://example.com/'])(
    'refuses the scheme of %s',
    (url) => {
      expect(checkOutboundUrl(url, { allowPrivate: true })).toEqual({ ok: false, message: 'must use http or https' });
    },
  );

  it('refuses credentials in the URL without repeating them', () => {
    for (const url of ['https://user:hunter2@example.com/', 'https://user@example.com/', 'https://:hunter2@example.com/']) {
      const check = checkOutboundUrl(url, { allowPrivate: true });
      expect(check.ok).toBe(false);
      expect(!check.ok && check.message).toMatch(/must not contain credentials/);
      expect(JSON.stringify(check)).not.toContain('hunter2');
    }
  });

  it('refuses what is not an absolute URL', () => {
    for (const url of ['', 'example.com/path', '/relative', 'http://exa mple.com/']) {
      expect(checkOutboundUrl(url, strict)).toEqual({ ok: false, message: 'must be an absolute http or https URL' });
    }
  });
});
