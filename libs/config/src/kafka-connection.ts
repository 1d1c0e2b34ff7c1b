import type { ConnectionOptions } from 'node:tls';
import { EnvironmentError } from './environment-error';
import type { KafkaEnv, KafkaSaslMechanism } from './kafka.env';
import { ReadFile, readFromDisk, readSettingFile } from './setting-file';

/** kafkajs' `brokers`, `ssl` and `sasl` (the same shapes, without importing kafkajs here). */
export interface KafkaConnectionSettings {
  brokers: string[];
  /** Longest a consumer's fetch waits for records (KAFKA_MAX_WAIT_MS). */
  maxWaitTimeInMs: number;
  /** A service's requests handled at once (BUS_MAX_IN_FLIGHT); unset where the app answers none. */
  maxRequestsInFlight?: number;
  ssl?: ConnectionOptions;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
}

export type KafkaConnectionEnv = Pick<
  KafkaEnv,
  | 'KAFKA_BROKERS'
  | 'KAFKA_MAX_WAIT_MS'
  | 'KAFKA_SSL'
  | 'KAFKA_SSL_CA_FILE'
  | 'KAFKA_SSL_CERT_FILE'
  | 'KAFKA_SSL_KEY_FILE'
  | 'KAFKA_SSL_REJECT_UNAUTHORIZED'
  | 'KAFKA_SASL_MECHANISM'
  | 'KAFKA_SASL_USERNAME'
  | 'KAFKA_SASL_PASSWORD'
>;

/**
 * Where and how every Kafka client of an app connects (producers, consumers, admin
 * clients, the readiness probe): one function, so that no client is left on plaintext.
 * Files are read once, here, at boot. Inconsistent settings stop the boot naming the
 * variables (a CA without TLS, a mechanism without a password …), never a value.
 */
export function kafkaConnectionFromEnv(env: KafkaConnectionEnv & { BUS_MAX_IN_FLIGHT?: number }, read: ReadFile = readFromDisk): KafkaConnectionSettings {
  const problems: string[] = [];
  const brokers = (env.KAFKA_BROKERS ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  if (!brokers.length) problems.push('KAFKA_BROKERS: required (a comma-separated host:port list)');

  const files = { KAFKA_SSL_CA_FILE: env.KAFKA_SSL_CA_FILE, KAFKA_SSL_CERT_FILE: env.KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE: env.KAFKA_SSL_KEY_FILE };
  let ssl: ConnectionOptions | undefined;
  if (env.KAFKA_SSL) {
    if (!env.KAFKA_SSL_CERT_FILE !== !env.KAFKA_SSL_KEY_FILE) {
      problems.push('KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE: give both (mutual TLS) or neither');
    }
    ssl = { rejectUnauthorized: env.KAFKA_SSL_REJECT_UNAUTHORIZED !== false };
    const contents: Record<string, Buffer | undefined> = {};
    for (const [variable, path] of Object.entries(files)) {
      if (!path) continue;
      try {
        contents[variable] = readSettingFile(variable, path, read);
      } catch (err) {
        if (!(err instanceof EnvironmentError)) throw err;
        problems.push(...err.problems);
      }
    }
    if (contents.KAFKA_SSL_CA_FILE) ssl.ca = contents.KAFKA_SSL_CA_FILE;
    if (contents.KAFKA_SSL_CERT_FILE) ssl.cert = contents.KAFKA_SSL_CERT_FILE;
    if (contents.KAFKA_SSL_KEY_FILE) ssl.key = contents.KAFKA_SSL_KEY_FILE;
  } else {
    for (const [variable, path] of Object.entries(files)) {
      if (path) problems.push(`${variable}: set, but KAFKA_SSL is not true`);
    }
  }

  let sasl: KafkaConnectionSettings['sasl'];
  if (env.KAFKA_SASL_MECHANISM) {
    for (const variable of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
      if (!env[variable]) problems.push(`${variable}: required with KAFKA_SASL_MECHANISM`);
    }
    sasl = { mechanism: env.KAFKA_SASL_MECHANISM, username: env.KAFKA_SASL_USERNAME ?? '', password: env.KAFKA_SASL_PASSWORD ?? '' };
  } else {
    for (const variable of ['KAFKA_SASL_USERNAME', 'KAFKA_SASL_PASSWORD'] as const) {
      if (env[variable]) problems.push(`${variable}: set, but KAFKA_SASL_MECHANISM is not`);
    }
  }

  if (problems.length) throw new EnvironmentError(problems);
  const maxRequestsInFlight = env.BUS_MAX_IN_FLIGHT;
  return { brokers, maxWaitTimeInMs: env.KAFKA_MAX_WAIT_MS, ...(maxRequestsInFlight !== undefined && { maxRequestsInFlight }), ...(ssl && { ssl }), ...(sasl && { sasl }) };
}
