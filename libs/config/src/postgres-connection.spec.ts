import { postgresConnection } from './postgres-connection';

const files: Record<string, string> = { '/ca.pem': 'CA', '/root.crt': 'ROOT', '/client.crt': 'CERT', '/client.key': 'KEY' };
const read = (path: string): Buffer => {
  if (!(path in files)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
  return Buffer.from(files[path]);
};
const BASE = 'postgres://app:secret@db.example:5432/cinetrace';
const connect = (query: string, caFile?: string) => postgresConnection(`${BASE}${query}`, caFile, read);

describe('postgresConnection: sslmode as libpq reads it', () => {
  it.each(['', '?sslmode=disable', '?sslmode=allow'])('%s: no TLS', (query) => {
    expect(connect(query)).toEqual({ url: BASE, ssl: false });
  });

  it.each(['prefer', 'require'])('%s: encrypted, the certificate not checked', (mode) => {
    expect(connect(`?sslmode=${mode}`)).toEqual({ url: BASE, ssl: { rejectUnauthorized: false } });
  });

  it('require with a CA file checks the chain, not the host name (libpq: as verify-ca)', () => {
    const { ssl } = connect('?sslmode=require', '/ca.pem');
    expect(ssl && [String(ssl.ca), ssl.rejectUnauthorized, ssl.checkServerIdentity?.('x', {} as never)]).toEqual(['CA', true, undefined]);
  });

  it('verify-ca: the chain against the CA file, whatever host the certificate names', () => {
    const { ssl } = connect('?sslmode=verify-ca', '/ca.pem');
    expect(ssl && String(ssl.ca)).toBe('CA');
    expect(ssl && ssl.rejectUnauthorized).toBe(true);
    expect(ssl && typeof ssl.checkServerIdentity).toBe('function');
  });

  it("verify-full: chain and host name (Node's own check), against the CA file or the public CAs", () => {
    expect(connect('?sslmode=verify-full', '/ca.pem')).toEqual({ url: BASE, ssl: { ca: Buffer.from('CA'), rejectUnauthorized: true } });
    expect(connect('?sslmode=verify-full')).toEqual({ url: BASE, ssl: { rejectUnauthorized: true } });
  });

  it('honours sslrootcert, sslcert and sslkey of the URL; DATABASE_SSL_CA_FILE wins', () => {
    const fromUrl = connect('?sslmode=verify-full&sslrootcert=/root.crt&sslcert=/client.crt&sslkey=/client.key');
    expect(fromUrl.url).toBe(BASE);
    expect(fromUrl.ssl && [fromUrl.ssl.ca, fromUrl.ssl.cert, fromUrl.ssl.key].map(String)).toEqual(['ROOT', 'CERT', 'KEY']);
    const both = connect('?sslmode=verify-full&sslrootcert=/root.crt', '/ca.pem');
    expect(both.ssl && String(both.ssl.ca)).toBe('CA');
  });

  it('keeps the other parameters and drops those node-postgres would read over our settings', () => {
    expect(connect('?application_name=x&sslmode=require&uselibpqcompat=true').url).toBe(`${BASE}?application_name=x`);
  });

  it('refuses what libpq would refuse, naming the variable and never the URL', () => {
    expect(() => connect('?sslmode=verify-ca')).toThrow('DATABASE_SSL_CA_FILE: required with sslmode=verify-ca');
    expect(() => connect('?sslmode=bogus')).toThrow(/DATABASE_URL: sslmode must be one of/);
    expect(() => connect('', '/ca.pem')).toThrow("DATABASE_SSL_CA_FILE: set, but DATABASE_URL's sslmode (none) uses no TLS");
    expect(() => connect('?sslmode=verify-full', '/missing.pem')).toThrow('DATABASE_SSL_CA_FILE: cannot read /missing.pem (ENOENT)');
    try {
      postgresConnection('postgres://app:secret@[bad', undefined, read);
    } catch (err) {
      expect((err as Error).message).not.toContain('secret');
    }
  });

  it('node-postgres keeps our TLS settings for the URL we give it', () => {
    // node-postgres's own reading of connection settings, which ships no typings.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ConnectionParameters = require('pg/lib/connection-parameters') as new (config: { connectionString: string; ssl: unknown }) => { ssl: unknown };
    for (const query of ['?sslmode=require', '?sslmode=verify-ca', '?sslmode=disable']) {
      const settings = connect(query, query.includes('disable') ? undefined : '/ca.pem');
      const params = new ConnectionParameters({ connectionString: settings.url, ssl: settings.ssl });
      expect(params.ssl).toBe(settings.ssl);
    }
  });
});
