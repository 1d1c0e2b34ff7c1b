import { EnvironmentError } from './environment-error';
import { Env } from './env-class';
import { KafkaEnv, withBus, withRequestServer } from './kafka.env';
import { kafkaConnectionFromEnv } from './kafka-connection';
import { validateEnv } from './validate-env';

const files: Record<string, string> = { '/ca.pem': 'CA', '/cert.pem': 'CERT', '/key.pem': 'KEY' };
const read = (path: string): Buffer => {
  if (!(path in files)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return Buffer.from(files[path]);
};
const connection = (env: Record<string, string>) => kafkaConnectionFromEnv(validateEnv(KafkaEnv, env), read);
const problems = (env: Record<string, string>): string[] => {
  try {
    connection(env);
  } catch (err) {
    if (err instanceof EnvironmentError) return err.problems;
    throw err;
  }
  return [];
};

describe('kafkaConnectionFromEnv', () => {
  it('plaintext without authentication by default', () => {
    expect(connection({ KAFKA_BROKERS: 'a:9092, b:9092' })).toEqual({ brokers: ['a:9092', 'b:9092'], maxWaitTimeInMs: 500 });
  });

  it("a service's bound on requests in flight: BUS_MAX_IN_FLIGHT, 128 unless set, 1 or more", () => {
    class ServiceBusEnv extends withRequestServer(withBus(Env)) {}
    const service = (env: Record<string, string>) => kafkaConnectionFromEnv(validateEnv(ServiceBusEnv, { KAFKA_BROKERS: 'a:9092', ...env }), read);
    expect(service({}).maxRequestsInFlight).toBe(128);
    expect(service({ BUS_MAX_IN_FLIGHT: '16' }).maxRequestsInFlight).toBe(16);
    expect(() => service({ BUS_MAX_IN_FLIGHT: '0' })).toThrow(/BUS_MAX_IN_FLIGHT/);
  });

  it('TLS with the public CAs, the certificate checked', () => {
    expect(connection({ KAFKA_BROKERS: 'a:9093', KAFKA_SSL: 'true' }).ssl).toEqual({ rejectUnauthorized: true });
  });

  it('TLS with a private CA and a client certificate (mutual TLS)', () => {
    const ssl = connection({ KAFKA_BROKERS: 'a:9093', KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/ca.pem', KAFKA_SSL_CERT_FILE: '/cert.pem', KAFKA_SSL_KEY_FILE: '/key.pem' }).ssl!;
    expect([ssl.ca, ssl.cert, ssl.key].map(String)).toEqual(['CA', 'CERT', 'KEY']);
    expect(ssl.rejectUnauthorized).toBe(true);
  });

  it('KAFKA_SSL_REJECT_UNAUTHORIZED=false accepts any certificate', () => {
    expect(connection({ KAFKA_BROKERS: 'a:9093', KAFKA_SSL: 'true', KAFKA_SSL_REJECT_UNAUTHORIZED: 'false' }).ssl).toEqual({ rejectUnauthorized: false });
  });

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)('SASL %s', (mechanism) => {
    expect(connection({ KAFKA_BROKERS: 'a:9093', KAFKA_SSL: 'true', KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: 'app', KAFKA_SASL_PASSWORD: 'pw' }).sasl).toEqual({
      mechanism,
      username: 'app',
      password: 'pw',
    });
  });

  it('empty optional variables (as manifests give them) are unset', () => {
    expect(connection({ KAFKA_BROKERS: 'a:9092', KAFKA_SSL_CA_FILE: '', KAFKA_SASL_MECHANISM: '', KAFKA_SASL_USERNAME: '', KAFKA_SASL_PASSWORD: '' })).toEqual({
      brokers: ['a:9092'],
      maxWaitTimeInMs: 500,
    });
  });

  it('an unknown mechanism is refused by validation, without the value', () => {
    expect(() => validateEnv(KafkaEnv, { KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(
      /KAFKA_SASL_MECHANISM: must be one of the following values: plain, scram-sha-256, scram-sha-512/,
    );
  });

  it('names each inconsistent setting, never a password', () => {
    expect(problems({ KAFKA_SSL_CA_FILE: '/ca.pem', KAFKA_SASL_PASSWORD: 'hunter2' })).toEqual([
      'KAFKA_BROKERS: required (a comma-separated host:port list)',
      'KAFKA_SSL_CA_FILE: set, but KAFKA_SSL is not true',
      'KAFKA_SASL_PASSWORD: set, but KAFKA_SASL_MECHANISM is not',
    ]);
    expect(problems({ KAFKA_BROKERS: 'a:1', KAFKA_SSL: 'true', KAFKA_SSL_CERT_FILE: '/cert.pem' })).toEqual([
      'KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE: give both (mutual TLS) or neither',
    ]);
    expect(problems({ KAFKA_BROKERS: 'a:1', KAFKA_SASL_MECHANISM: 'scram-sha-512', KAFKA_SASL_USERNAME: 'app' })).toEqual([
      'KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM',
    ]);
  });

  it('a file it cannot read stops the boot naming the variable and the path', () => {
    expect(problems({ KAFKA_BROKERS: 'a:1', KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/missing.pem' })).toEqual(['KAFKA_SSL_CA_FILE: cannot read /missing.pem (ENOENT)']);
  });
});
