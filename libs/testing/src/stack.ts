import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Api, api } from './api';
import { AppProcess } from './app-process';
import { Broker, startBroker } from './broker';
import { DatabaseServer, TestDatabase, createDatabase } from './database';
import { aTestApiKey } from './factories';
import { freePort } from './free-port';
import { StackMode } from './mode';
import { dropRedisPrefix } from './redis-prefix';
import { makeRoomForOwnStack, reportOwnStackStarted } from './shared-stack-client';

/** An app of a stack: its name and the built entry point, relative to the repo root. */
export interface AppSpec {
  name: string;
  entry: string;
}

export const ALL_IN_ONE_APP: AppSpec = { name: 'all-in-one', entry: 'apps/all-in-one/dist/main.js' };

/**
 * The processes of the distributed stack. New apps join here; the edge (the one that
 * answers HTTP for the suite) is the gateway.
 */
export const DISTRIBUTED_APPS: AppSpec[] = [
  { name: 'project-service', entry: 'apps/project-service/dist/main.js' },
  { name: 'prompt-service', entry: 'apps/prompt-service/dist/main.js' },
  { name: 'trace-ingest', entry: 'apps/trace-ingest/dist/main.js' },
  { name: 'benchmark-service', entry: 'apps/benchmark-service/dist/main.js' },
  { name: 'benchmark-worker', entry: 'apps/benchmark-worker/dist/main.js' },
  { name: 'media-service', entry: 'apps/media-service/dist/main.js' },
  { name: 'gateway', entry: 'apps/gateway/dist/main.js' },
];
const EDGE_APP = 'gateway';
const edgeEntry = DISTRIBUTED_APPS.find((app) => app.name === EDGE_APP)!.entry;

export interface StackOptions {
  /** The BOOTSTRAP_API_KEY; default a random one; `null` starts without (the stack makes its own). */
  apiKey?: string | null;
  /** DATA_DIR; default a fresh temp dir, removed by stop(). */
  dataDir?: string;
  /** Extra environment for every app (e.g. MAX_BODY_BYTES). */
  env?: Record<string, string>;
  /** Distributed: run a private broker even when KAFKA_BROKERS names a shared one. */
  ownBroker?: boolean;
  /** Distributed: use this bootstrap address (e.g. a broker the test controls). */
  kafkaBrokers?: string;
  /** How long start and restart may take to be ready; default 90 s. */
  readyTimeoutMs?: number;
  /** Distributed: the task queue's Redis (e.g. one the test stops); default E2E_REDIS_URL or the local one. */
  redisUrl?: string;
  /**
   * Distributed: the PostgreSQL server the stack's database is created on (e.g. one with TLS);
   * default E2E_PG_ADMIN_URL or the local one. Its CA becomes the apps' DATABASE_SSL_CA_FILE.
   */
  databaseServer?: DatabaseServer;
  /**
   * Distributed: how many processes of an app to run (default one each), as a cluster runs
   * several: `{ 'trace-ingest': 2 }` runs `trace-ingest` and `trace-ingest-2` in one consumer
   * group, each with its own HEALTH_PORT; `{ gateway: 2 }` adds `gateway-2` on a port of its
   * own (see `edgeUrls`). The stack is ready once every one of them is. All-in-one: always one.
   */
  replicas?: Partial<Record<string, number>>;
}

/** How an app ended. */
export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Stack {
  readonly mode: StackMode;
  readonly baseUrl: string;
  /** Every gateway replica's URL, `baseUrl` first (one entry unless `replicas` asked for more). */
  readonly edgeUrls: string[];
  /** Where the (first) edge takes OTLP/gRPC exports: `127.0.0.1:<OTLP_GRPC_PORT>`. */
  readonly otlpGrpcAddress: string;
  /** The key the suite authenticates with: the given one, or the one the stack bootstrapped ('' if none). */
  readonly apiKey: string;
  readonly dataDir: string;
  /** Distributed: the PostgreSQL database the apps share (each in its own schema); all-in-one: null (SQLite under dataDir). */
  readonly databaseUrl: string | null;
  /** Distributed: the Kafka bootstrap address the apps use; all-in-one: null. */
  readonly kafkaBrokers: string | null;
  /** Distributed: the KAFKA_* variables the apps are given (TLS, SASL), for a test's own client (testKafka); all-in-one: null. */
  readonly kafkaEnv: Record<string, string> | null;
  /** An authenticated client. */
  api(): Api;
  /** Output (stdout and stderr) of the apps since the last start or restart. */
  output(): string;
  /** Stops every app (SIGTERM, SIGKILL after 5 s) and removes what the harness created. */
  stop(): Promise<void>;
  /** Stops the apps and starts them again on the same store, port and key. */
  restart(options?: { env?: Record<string, string | undefined> }): Promise<void>;
  /** Sends `signal` to every app and waits until they have exited (a crash, with SIGKILL). */
  kill(signal?: NodeJS.Signals): Promise<void>;
  /** Sends `signal` to the named app only and waits until it has exited. */
  killApp(name: string, signal?: NodeJS.Signals): Promise<AppExit>;
  /** Where the named app serves /healthz and /readyz: its HEALTH_PORT (distributed), else the edge. */
  healthUrl(name: string): string;
  /** Starts the named app again, as it was started before (after killApp). */
  startApp(name: string): Promise<void>;
  /** The environment the named app is started with (a copy): for a test that starts one itself, changed. */
  environment(name: string): Record<string, string>;
  /** The process id of the named app while it runs (e.g. to read its memory from /proc). */
  pid(name: string): number | undefined;
}

// Two distributed stacks on one broker would share consumer groups and answer each
// other's requests, so the harness refuses rather than letting tests interfere.
const stacksOnBroker = new Map<string, number>();

/**
 * Starts the whole service in `mode` as child processes and waits until it serves: a stack of
 * the caller's own. Within a jest run that shares stacks (shared-stacks.ts), the shared stacks
 * no file holds are stopped first.
 */
export async function startStack(mode: StackMode, options: StackOptions = {}): Promise<Stack> {
  const laneBroker = mode === 'distributed' && !options.kafkaBrokers && !options.ownBroker ? process.env.KAFKA_BROKERS || null : null;
  await makeRoomForOwnStack(laneBroker);
  const started = Date.now();
  const stack = await launchStack(mode, options);
  await reportOwnStackStarted(Date.now() - started);
  return stack;
}

/** startStack without asking a shared-stack registry: the registry's own way to start one. */
export async function launchStack(mode: StackMode, options: StackOptions = {}): Promise<Stack> {
  const apiKey = options.apiKey === undefined ? aTestApiKey() : options.apiKey;
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cinetrace-e2e-'));
  const cleanups: Array<() => Promise<void> | void> = [];
  if (ownDataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

  const common: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
  if (apiKey) common.BOOTSTRAP_API_KEY = apiKey;
  const apps: Array<AppSpec & { env: Record<string, string> }> = [];
  let edgePort: number;
  let databaseUrl: string | null = null;
  let kafkaBrokers: string | null = null;
  const replicaPorts: number[] = [];
  /** Each edge's OTLP/gRPC port (OTLP_GRPC_PORT), in the order of edgeUrls. */
  const grpcPorts: number[] = [];
  /** Where replicas of apps other than the gateway answer /readyz. */
  const replicaHealthUrls: string[] = [];
  try {
    if (mode === 'all-in-one') {
      edgePort = await freePort();
      grpcPorts.push(await freePort());
      apps.push({ ...ALL_IN_ONE_APP, env: { ...common, PORT: String(edgePort), OTLP_GRPC_PORT: String(grpcPorts[0]) } });
    } else {
      const brokers = (kafkaBrokers = await brokerFor(options, cleanups));
      const database: TestDatabase = await createDatabase(options.databaseServer);
      cleanups.unshift(() => database.drop());
      databaseUrl = database.url;
      const redisUrl = options.redisUrl ?? (process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379');
      // Stacks share one Redis: each keeps its task queue under its own prefix, removed with the stack.
      const queuePrefix = `ct-e2e-${randomBytes(6).toString('hex')}`;
      if (!options.redisUrl) cleanups.unshift(() => dropRedisPrefix(redisUrl, queuePrefix).then(() => undefined));
      const shared = {
        ...common,
        KAFKA_BROKERS: brokers,
        DATABASE_URL: database.url,
        ...(options.databaseServer?.caFile && { DATABASE_SSL_CA_FILE: options.databaseServer.caFile }),
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: queuePrefix,
        // project-service requires it in this mode; one per stack, kept across restarts.
        SECRETS_KEY: randomBytes(32).toString('base64'),
      };
      edgePort = 0;
      for (const app of DISTRIBUTED_APPS) {
        const port = await freePort();
        if (app.name === EDGE_APP) {
          edgePort = port;
          grpcPorts.push(await freePort());
          apps.push({ ...app, env: { ...shared, PORT: String(port), OTLP_GRPC_PORT: String(grpcPorts[0]) } });
          for (let replica = 2; replica <= (options.replicas?.[EDGE_APP] ?? 1); replica++) {
            const replicaPort = await freePort();
            replicaPorts.push(replicaPort);
            grpcPorts.push(await freePort());
            apps.push({ ...app, name: `${EDGE_APP}-${replica}`, env: { ...shared, PORT: String(replicaPort), OTLP_GRPC_PORT: String(grpcPorts[grpcPorts.length - 1]) } });
          }
        } else {
          // The others serve no API: their probes answer on a port of their own, as in Kubernetes.
          apps.push({ ...app, env: { ...shared, HEALTH_PORT: String(port) } });
          for (let replica = 2; replica <= (options.replicas?.[app.name] ?? 1); replica++) {
            const name = `${app.name}-${replica}`;
            replicaHealthUrls.push(`http://127.0.0.1:${await freePort()}`);
            apps.push({ ...app, name, env: { ...shared, HEALTH_PORT: new URL(replicaHealthUrls[replicaHealthUrls.length - 1]).port } });
          }
        }
      }
    }
    for (const app of apps) Object.assign(app.env, options.env);
  } catch (error) {
    await runCleanups(cleanups);
    throw error;
  }

  const baseUrl = `http://127.0.0.1:${edgePort}`;
  const edgeUrls = [baseUrl, ...replicaPorts.map((port) => `http://127.0.0.1:${port}`)];
  const timeoutMs = options.readyTimeoutMs ?? 90_000;
  let running: AppProcess[] = [];
  let key = apiKey ?? '';
  let stopped = false;

  const launch = async () => {
    running = apps.map((app) => new AppProcess(app.name, app.entry, { ...baseEnv(), ...app.env }));
    // Every replica must serve: each gateway joins the reply consumer group on its own.
    const keys = await Promise.all(edgeUrls.map((url) => waitUntilReady(url, running, apiKey ?? null, dataDir, timeoutMs)));
    await Promise.all(replicaHealthUrls.map((url) => waitUntilServing(`${url}/readyz`, running, timeoutMs)));
    key = keys[0];
  };
  const stopApps = () => Promise.all(running.map((app) => app.stop()));

  const stack: Stack = {
    mode,
    baseUrl,
    edgeUrls,
    otlpGrpcAddress: `127.0.0.1:${grpcPorts[0]}`,
    dataDir,
    databaseUrl,
    kafkaBrokers,
    kafkaEnv: kafkaBrokers === null ? null : { ...kafkaVariables(apps[0]?.env ?? {}), KAFKA_BROKERS: kafkaBrokers },
    get apiKey() {
      return key;
    },
    api: () => api(baseUrl, key),
    output: () => running.map((app) => app.output()).join(''),
    async stop() {
      if (stopped) return;
      stopped = true;
      await stopApps();
      await runCleanups(cleanups);
    },
    async restart(restartOptions = {}) {
      await stopApps();
      for (const app of apps) {
        for (const [name, value] of Object.entries(restartOptions.env ?? {})) {
          if (value === undefined) delete app.env[name];
          else app.env[name] = value;
        }
      }
      await launch();
    },
    async kill(signal = 'SIGTERM') {
      running.forEach((app) => app.kill(signal));
      await Promise.all(running.map((app) => app.exited));
    },
    async killApp(name, signal = 'SIGTERM') {
      const app = running.find((a) => a.name === name);
      if (!app) throw new Error(`no app named ${name} in this stack`);
      app.kill(signal);
      return app.exited;
    },
    healthUrl(name) {
      if (mode === 'all-in-one' || name === EDGE_APP) return baseUrl;
      const app = apps.find((a) => a.name === name);
      if (!app) throw new Error(`no app named ${name} in this stack`);
      // A gateway replica answers its probes on its HTTP port; the others on HEALTH_PORT.
      return `http://127.0.0.1:${app.entry === edgeEntry ? app.env.PORT : app.env.HEALTH_PORT}`;
    },
    async startApp(name) {
      const index = running.findIndex((a) => a.name === name);
      const spec = apps.find((a) => a.name === name);
      if (index < 0 || !spec) throw new Error(`no app named ${name} in this stack`);
      running[index] = new AppProcess(spec.name, spec.entry, { ...baseEnv(), ...spec.env });
    },
    environment(name) {
      const spec = apps.find((a) => a.name === name);
      if (!spec) throw new Error(`no app named ${name} in this stack`);
      return { ...baseEnv(), ...spec.env };
    },
    pid(name) {
      const app = running.find((a) => a.name === name);
      if (!app) throw new Error(`no app named ${name} in this stack`);
      return app.running ? app.pid : undefined;
    },
  };

  try {
    await launch();
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}

/** Distributed: the broker address, starting a private broker when there is no shared one. */
async function brokerFor(options: StackOptions, cleanups: Array<() => Promise<void> | void>): Promise<string> {
  let brokers = options.kafkaBrokers ?? (options.ownBroker ? undefined : process.env.KAFKA_BROKERS);
  if (!brokers) {
    const broker: Broker = await startBroker();
    cleanups.push(() => broker.remove());
    brokers = broker.brokers;
  }
  const address = brokers;
  if (stacksOnBroker.get(address)) {
    throw new Error(`Another distributed stack is running on broker ${address}: stop it first, or pass ownBroker: true`);
  }
  stacksOnBroker.set(address, 1);
  cleanups.push(() => void stacksOnBroker.delete(address));
  return address;
}

/** The KAFKA_* variables of an app's environment. */
function kafkaVariables(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('KAFKA_')));
}

async function runCleanups(cleanups: Array<() => Promise<void> | void>): Promise<void> {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0)) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length) throw failures[0];
}

/**
 * The apps get a clean environment (plus what the harness sets), so a developer's
 * DATABASE_URL or KAFKA_BROKERS never leaks into an all-in-one stack.
 */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ', 'NODE_OPTIONS']) {
    const value = process.env[name];
    if (value) env[name] = value;
  }
  return env;
}

/**
 * Ready means serving a real request: /readyz answers 200, then an authenticated list
 * of projects answers 200 (Kafka consumer groups take a few seconds to join).
 * Returns the key it authenticated with (the bootstrap file's when none was given).
 */
async function waitUntilReady(baseUrl: string, apps: AppProcess[], apiKey: string | null, dataDir: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  const keyFile = join(dataDir, 'bootstrap-api-key');
  let last = 'no answer yet';
  const probe = async (path: string, key?: string): Promise<boolean> => {
    try {
      const response = await api(baseUrl, key).get(path, undefined, { timeoutMs: 5000 });
      last = `GET ${path}: ${response.status} ${response.text.slice(0, 300)}`;
      return response.status === 200;
    } catch (error) {
      last = `GET ${path}: ${(error as Error).message}`;
      return false;
    }
  };
  let phase: 'readyz' | 'projects' = 'readyz';
  while (Date.now() < deadline) {
    const dead = apps.find((app) => !app.running);
    if (dead) {
      const { code, signal } = await dead.exited;
      throw new Error(`${dead.name} exited while starting (code ${code}, signal ${signal}):\n${tails(apps)}`);
    }
    if (phase === 'readyz') {
      if (await probe('/readyz')) phase = 'projects';
    } else {
      const key = apiKey ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : undefined);
      if (key === undefined) last = `no ${keyFile} yet`;
      else if (await probe('/api/v1/projects', key)) return key;
    }
    await sleep(250);
  }
  throw new Error(`Stack at ${baseUrl} not ready after ${timeoutMs} ms (last: ${last}):\n${tails(apps)}`);
}

/** Polls `url` until it answers 200; fails if one of `apps` exits first or `timeoutMs` passes. */
async function waitUntilServing(url: string, apps: AppProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = apps.find((app) => !app.running);
    if (dead) throw new Error(`${dead.name} exited while starting:\n${tails(apps)}`);
    const status = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    await sleep(250);
  }
  throw new Error(`not ready at ${url} after ${timeoutMs} ms:\n${tails(apps)}`);
}

function tails(apps: AppProcess[]): string {
  return apps.map((app) => `--- ${app.name} (pid ${app.pid}) ---\n${app.output().slice(-4000)}`).join('\n');
}
