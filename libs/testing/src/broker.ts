import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, takePort } from './free-port';
import { repoRoot } from './repo-root';

const run = promisify(execFile);

/**
 * A broker's one client listener as SASL_SSL: TLS with a PKCS#12 keystore (its certificate,
 * signed by `caFile`) and a SCRAM-SHA-512 user created when its store is formatted.
 */
export interface BrokerSecurity {
  keystoreFile: string;
  keystorePassword: string;
  /** PEM CA the broker's certificate chains to: the apps' KAFKA_SSL_CA_FILE. */
  caFile: string;
  username: string;
  password: string;
  /**
   * Mutual TLS: the broker refuses clients without a certificate `caFile` signed; these are
   * the PEM certificate and key its clients are given (KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE).
   */
  clientCertificate?: { certFile: string; keyFile: string };
}

/** A real Apache Kafka broker (one KRaft node) run by scripts/kafka/broker.sh, pinned to one port. */
export interface Broker {
  /** `127.0.0.1:<port>`, the value for KAFKA_BROKERS. */
  readonly brokers: string;
  readonly port: number;
  /** The KAFKA_* variables a client of this broker needs (KAFKA_BROKERS, and TLS and SASL when it has them). */
  readonly env: Record<string, string>;
  /** SIGKILLs the broker and waits until its port is closed: a Kafka outage. Its log stays on disk. */
  stop(): Promise<void>;
  /** Starts it again at the same address, on the log it kept: what it acknowledged is still there. */
  start(): Promise<void>;
  /** Stops it for good and removes its data. */
  remove(): Promise<void>;
}

async function brokerSh(command: 'start' | 'stop' | 'kill', port: number, security?: BrokerSecurity): Promise<string> {
  const script = join(repoRoot(), 'scripts/kafka/broker.sh');
  const secure = security && command === 'start' ? securityArguments(security) : [];
  try {
    // The first start on a machine fetches the broker's jars with Maven.
    // A test's broker lives for a suite and carries little: the quick JIT halves its start's CPU (broker.sh).
    const env = { ...process.env, KAFKA_QUICK_JIT: '1' };
    const { stdout } = await run('bash', [script, command, '--port', String(port), ...secure], { timeout: 180_000, env });
    return stdout.trim().split('\n').pop() ?? '';
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`scripts/kafka/broker.sh ${command} --port ${port} failed: ${e.stderr || e.message}`);
  }
}

function securityArguments(security: BrokerSecurity): string[] {
  return [
    '--tls-keystore',
    security.keystoreFile,
    '--tls-keystore-password',
    security.keystorePassword,
    '--tls-ca',
    security.caFile,
    '--scram-user',
    `${security.username}:${security.password}`,
    ...(security.clientCertificate ? ['--tls-client-auth', 'required'] : []),
  ];
}

/**
 * Starts a broker on `port` (a free one, with a free one after it for the controller, when
 * omitted); with `security`, its listener takes SASL_SSL only.
 */
export async function startBroker(port?: number, security?: BrokerSecurity): Promise<Broker> {
  const pinned = port ?? (await freePortPair());
  const brokers = await brokerSh('start', pinned, security);
  const env: Record<string, string> = { KAFKA_BROKERS: brokers };
  if (security) {
    Object.assign(env, {
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: security.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: security.username,
      KAFKA_SASL_PASSWORD: security.password,
      ...(security.clientCertificate && { KAFKA_SSL_CERT_FILE: security.clientCertificate.certFile, KAFKA_SSL_KEY_FILE: security.clientCertificate.keyFile }),
    });
  }
  return {
    brokers,
    port: pinned,
    env,
    stop: async () => void (await brokerSh('kill', pinned)),
    start: async () => void (await brokerSh('start', pinned, security)),
    remove: async () => void (await brokerSh('stop', pinned)),
  };
}

/** A free port whose successor (the controller's listener) is free too. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt += 1) {
    const port = await freePort();
    if (port < 65534 && (await takePort(port + 1))) return port;
  }
  throw new Error('no two consecutive free ports found for a broker');
}
