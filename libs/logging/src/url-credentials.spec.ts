import pino from 'pino';
import { redactUrlCredentialsHooks, withoutUrlCredentials } from './url-credentials';

describe('withoutUrlCredentials', () => {
  it('replaces the user and password of every URL in a text', () => {
    expect(withoutUrlCredentials('connect to postgres://cinetrace:s3cret@db:5432/x failed')).toBe('connect to postgres://[redacted]@db:5432/x failed');
    expect(withoutUrlCredentials('rediss://default:pw@redis:6380 and redis://:only-password@r/0')).toBe('rediss://[redacted]@redis:6380 and redis://[redacted]@r/0');
    expect(withoutUrlCredentials('POSTGRESQL://U:P@H')).toBe('POSTGRESQL://[redacted]@H');
  });

  it('takes a password with a raw @ or : whole', () => {
    expect(withoutUrlCredentials('postgres://u:p@ss:w@rd@db/x')).toBe('postgres://[redacted]@db/x');
  });

  it('replaces a password given as a URL parameter', () => {
    expect(withoutUrlCredentials('postgres://db/x?sslmode=require&password=s3cret&user=u')).toBe('postgres://db/x?sslmode=require&password=[redacted]&user=u');
  });

  it('leaves URLs without credentials, and addresses that are no URL, as they are', () => {
    for (const text of ['http://127.0.0.1:3000/v1/traces', 'connect ECONNREFUSED 127.0.0.1:5432', 'mail ops@example.com', 'kafka 127.0.0.1:9092', '']) {
      expect(withoutUrlCredentials(text)).toBe(text);
    }
  });
});

describe('withoutUrlCredentials on what a client could make a log line quote', () => {
  it('stays linear: a 200,000-character dotted word (quadratic with an unbounded scheme: tens of seconds)', () => {
    const text = 'a.'.repeat(100_000) + ' postgres://u:pw@db/x';
    const started = performance.now();
    expect(withoutUrlCredentials(text)).toContain('postgres://[redacted]@db/x');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('redactUrlCredentialsHooks', () => {
  it('redacts the message and the format arguments of every pino log call', () => {
    const lines: string[] = [];
    const logger = pino({ hooks: redactUrlCredentialsHooks }, { write: (line: string) => void lines.push(line) });
    logger.warn('Redis at rediss://app:pw1@r:6380 is unreachable');
    logger.error({ context: 'Store' }, 'connecting to %s failed', 'postgres://u:pw2@db/x');
    expect(lines.join('')).not.toMatch(/pw1|pw2/);
    expect(lines.join('')).toContain('postgres://[redacted]@db/x');
  });
});
