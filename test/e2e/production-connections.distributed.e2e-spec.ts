import {
  AppProcess,
  Broker,
  DISTRIBUTED_APPS,
  Stack,
  TestCertificates,
  TestRedis,
  TlsPostgres,
  freePort,
  makeTestCertificates,
  startBroker,
  startRedis,
  startStack,
  startTlsPostgres,
  testKafka,
  unique,
} from '@cinetrace/testing';
import { postgresConnection } from '@cinetrace/config';
import IORedis from 'ioredis';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { createPrompt, inNewProject, PROMPTS } from './support/prompts';
import { STACK_HOOK_TIMEOUT_MS } from './support/stack-hooks';
import { aTrace, readEventually, TRACES } from './support/traces';
import { Answer } from './support/api-types';

// Ports of the test's own servers: free ones unless pinned (a shared machine may reserve ranges).
const pinned = (name: string): number | undefined => (process.env[name] ? Number(process.env[name]) : undefined);
const KAFKA_PASSWORD = `kafka-${unique('pw').replace(/[^A-Za-z0-9]/g, '')}`;
/** The TLS alert kafkajs logs when the broker ends the session of a client without a certificate (TLS 1.2: 42; 1.3: 116). */
const CONNECTION_REFUSED = /alert bad certificate|alert certificate required/;
const REDIS_PASSWORD = `redis-${unique('pw').replace(/[^A-Za-z0-9]/g, '')}`;

/**
 * The distributed mode as production runs it: Kafka over SASL_SSL with SCRAM-SHA-512 (the
 * password from a file, KAFKA_SASL_PASSWORD_FILE) and mutual TLS (the broker asks every client
 * for a certificate its CA signed: KAFKA_SSL_CERT_FILE, KAFKA_SSL_KEY_FILE), PostgreSQL with sslmode=verify-full against a
 * private CA, Redis over TLS with an ACL user. Every server is the test's own, with certificates
 * made here; each refuses plaintext, so an app that connected without TLS could not start.
 */
describe('Production connections: TLS and authentication (distributed)', () => {
  let certs: TestCertificates | undefined;
  let broker: Broker | undefined;
  let postgres: TlsPostgres | undefined;
  let redis: TestRedis | undefined;
  let stack: Stack | undefined;
  const cleanups: Array<() => unknown> = [];

  beforeAll(async () => {
    certs = makeTestCertificates();
    broker = await startBroker(pinned('E2E_TLS_KAFKA_PORT'), {
      keystoreFile: certs.keystoreFile,
      keystorePassword: certs.keystorePassword,
      caFile: certs.caFile,
      username: 'cinetrace',
      password: KAFKA_PASSWORD,
      // Any certificate the CA signed for client authentication will do: the server's has clientAuth.
      clientCertificate: { certFile: certs.certFile, keyFile: certs.keyFile },
    });
    postgres = await startTlsPostgres(certs, pinned('E2E_TLS_PG_PORT'));
    redis = await startRedis({ tls: certs, user: { name: 'cinetrace', password: REDIS_PASSWORD }, port: pinned('E2E_TLS_REDIS_PORT') });
    const passwordFile = join(certs.dir, 'kafka-password');
    writeFileSync(passwordFile, `${KAFKA_PASSWORD}\n`);
    const { KAFKA_SASL_PASSWORD: _given, ...kafkaEnv } = broker.env;
    stack = await startStack('distributed', {
      kafkaBrokers: broker.brokers,
      databaseServer: { adminUrl: postgres.url('verify-full'), caFile: certs.caFile },
      redisUrl: redis.url,
      env: { ...kafkaEnv, KAFKA_SASL_PASSWORD_FILE: passwordFile, REDIS_TLS_CA_FILE: certs.caFile },
    });
  }, STACK_HOOK_TIMEOUT_MS * 2);

  afterAll(async () => {
    // Each one even when another fails, and whatever beforeAll got to.
    for (const cleanup of [...cleanups, () => stack?.stop(), () => broker?.remove(), () => postgres?.stop(), () => redis?.stop(), () => certs?.remove()]) {
      await Promise.resolve()
        .then(cleanup)
        .catch((err) => console.error(`cleanup failed: ${(err as Error).message}`));
    }
  }, STACK_HOOK_TIMEOUT_MS);

  it('serves with every connection encrypted: a project and its key, a trace written and read back, a prompt', async () => {
    const { api } = await inNewProject(stack!.api());
    const trace = aTrace();
    expect((await api.post(TRACES, trace)).status).toBe(202);
    const stored = await readEventually(api, trace.id, (t) => t.spanCount === trace.spans.length);
    expect(stored.id).toBe(trace.id);
    const prompt = await createPrompt(api);
    expect((await api.get<Answer<'getPrompt'>>(`${PROMPTS}/${prompt.id}`)).body.name).toBe(prompt.name);
    // The apps' sessions with PostgreSQL are all encrypted.
    const { url, ssl } = postgresConnection(stack!.databaseUrl!, certs!.caFile);
    const client = new Client({ connectionString: url, ssl });
    await client.connect();
    try {
      const { rows } = await client.query<{ plain: number }>(
        `SELECT count(*)::int AS plain FROM pg_stat_activity a LEFT JOIN pg_stat_ssl s ON s.pid = a.pid
          WHERE a.datname = current_database() AND a.backend_type = 'client backend' AND NOT coalesce(s.ssl, false)`,
      );
      expect(rows[0].plain).toBe(0);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('Kafka refuses a plaintext client, a client that does not trust the CA, and one without a client certificate', async () => {
    // No retries: each refusal is the answer (kafkajs would retry each for ~10 s).
    const once = { retry: { retries: 0 } };
    const plain = testKafka(unique('e2e-plain'), { KAFKA_BROKERS: broker!.brokers }, once).admin();
    await expect(plain.connect()).rejects.toThrow();
    await plain.disconnect();
    const { KAFKA_SSL_CA_FILE: _ca, ...withoutCa } = broker!.env;
    const untrusting = testKafka(unique('e2e-no-ca'), withoutCa, once).admin();
    await expect(untrusting.connect()).rejects.toThrow();
    await untrusting.disconnect();
    const { KAFKA_SSL_CERT_FILE: _cert, KAFKA_SSL_KEY_FILE: _key, ...withoutCertificate } = broker!.env;
    const anonymous = testKafka(unique('e2e-no-cert'), withoutCertificate, once).admin();
    await expect(anonymous.connect()).rejects.toThrow();
    await anonymous.disconnect();
    const trusting = testKafka(unique('e2e-tls'), stack!.kafkaEnv!).admin();
    await trusting.connect();
    expect((await trusting.describeCluster()).brokers).toHaveLength(1);
    await trusting.disconnect();
  }, 60_000);

  it('PostgreSQL refuses a plaintext client and a verify-full client without the CA', async () => {
    for (const [sslmode, caFile, refusal] of [
      ['disable', undefined, /no encryption/],
      ['verify-full', undefined, /certificate/],
    ] as const) {
      const { url, ssl } = postgresConnection(postgres!.url(sslmode), caFile);
      const client = new Client({ connectionString: url, ssl, connectionTimeoutMillis: 5000 });
      await expect(client.connect()).rejects.toThrow(refusal);
      await client.end().catch(() => undefined);
    }
  }, 30_000);

  it('Redis refuses a client that does not trust the CA', async () => {
    const client = new IORedis(redis!.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    await expect(client.connect()).rejects.toThrow();
    client.disconnect();
  }, 30_000);

  it("an app without a client certificate never becomes ready, and logs the broker's TLS refusal", async () => {
    const env: Record<string, string> = { ...stack!.environment('prompt-service'), HEALTH_PORT: String(await freePort()), LOG_LEVEL: 'info' };
    delete env.KAFKA_SSL_CERT_FILE;
    delete env.KAFKA_SSL_KEY_FILE;
    const app = new AppProcess('prompt-service-no-client-certificate', DISTRIBUTED_APPS.find((a) => a.name === 'prompt-service')!.entry, env);
    cleanups.push(() => app.stop());
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !CONNECTION_REFUSED.test(app.output())) {
      const status = await fetch(`http://127.0.0.1:${env.HEALTH_PORT}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
      expect(status).not.toBe(200);
      await sleep(500);
    }
    expect(app.output()).toMatch(CONNECTION_REFUSED);
  }, 45_000);

  it('with a wrong Kafka password no app becomes ready, each says why, and none prints the password', async () => {
    const wrongPassword = `wrong-${KAFKA_PASSWORD}`;
    const wrongFile = join(certs!.dir, 'wrong-kafka-password');
    writeFileSync(wrongFile, wrongPassword);
    const apps = await Promise.all(
      DISTRIBUTED_APPS.map(async (app) => {
        const env: Record<string, string> = { ...stack!.environment(app.name), KAFKA_SASL_PASSWORD_FILE: wrongFile, LOG_LEVEL: 'info' };
        const port = String(await freePort());
        if ('PORT' in env) Object.assign(env, { PORT: port, OTLP_GRPC_PORT: String(await freePort()) });
        else env.HEALTH_PORT = port;
        return { name: app.name, port, process: new AppProcess(`${app.name}-wrong-password`, app.entry, env) };
      }),
    );
    cleanups.push(() => Promise.all(apps.map((app) => app.process.stop())));
    const readyz = (port: string) =>
      fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
        (r) => r.status,
        () => 0,
      );
    const deadline = Date.now() + 45_000;
    const pending = new Set(apps.map((app) => app.name));
    while (pending.size && Date.now() < deadline) {
      for (const app of apps) {
        if (!pending.has(app.name)) continue;
        // Ready is what must never happen; the app may exit, or serve a 503 and keep retrying.
        expect(await readyz(app.port)).not.toBe(200);
        if (/SASL SCRAM SHA512 authentication failed/.test(app.process.output())) pending.delete(app.name);
      }
      await sleep(500);
    }
    for (const app of apps) {
      expect({ app: app.name, said: /SASL SCRAM SHA512 authentication failed/.test(app.process.output()) }).toEqual({ app: app.name, said: true });
      expect(app.process.output()).not.toContain(wrongPassword);
      expect(app.process.output()).not.toContain(KAFKA_PASSWORD);
    }
  }, 90_000);
});
