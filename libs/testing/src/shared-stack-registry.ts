import { randomBytes } from 'node:crypto';
import { IncomingMessage, ServerResponse, createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { StackMode } from './mode';
import type { Holder } from './shared-stack-client';
import { SharedApp, SharedStackDescription, sharingKey } from './shared-stacks';
import { ALL_IN_ONE_APP, DISTRIBUTED_APPS, Stack, StackOptions, launchStack } from './stack';

/**
 * The stacks a jest run shares between its test files, run by its global setup (in jest's
 * own process, which outlives every test file: jest gives each file its own modules and
 * globals, so nothing a file starts can be handed to the next). A file asks for a stack of
 * some options over HTTP (shared-stacks.ts); the first file asking starts it, the next ones
 * reuse it. At most one stack no file holds is kept: starting any other stack (shared or a
 * file's own) stops it first, so a run has no more stacks up at once than with a stack per file,
 * and a distributed stack never meets another on its broker. The e2e sequencer runs the files
 * of equal options one after another, so each shared stack starts about once.
 */
export interface SharedStackRegistry {
  /** The value of SHARED_STACKS_ENV for the test files. */
  readonly address: string;
  /** Stops every stack and the server; gives a line on what was started. */
  close(): Promise<string>;
}

interface Entry {
  readonly id: string;
  readonly key: string;
  readonly stack: Stack;
  readonly description: SharedStackDescription;
  /** How many stacks each holder ("worker:file") has asked for and not let go. */
  readonly holders: Map<string, number>;
}

interface Counts {
  sharedStarts: number;
  sharedStartMs: number;
  uses: number;
  ownStarts: number;
  ownStartMs: number;
}

const holderId = (holder: Holder) => `${holder.worker}:${holder.file}`;

export async function serveSharedStacks(): Promise<SharedStackRegistry> {
  const entries = new Map<string, Entry>();
  const counts: Counts = { sharedStarts: 0, sharedStartMs: 0, uses: 0, ownStarts: 0, ownStartMs: 0 };
  let nextId = 1;
  // One request at a time: two files asking for the same options get one stack.
  let queue: Promise<unknown> = Promise.resolve();
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  const stopEntry = async (entry: Entry, why: string) => {
    entries.delete(entry.key);
    try {
      await entry.stack.stop();
    } catch (error) {
      process.stderr.write(`shared stack ${entry.id} (${why}): stopping it failed: ${(error as Error).message}\n`);
    }
  };

  /** A worker runs one file at a time: what an earlier file of the same worker still holds, it left (a hook that timed out). */
  const dropStaleHolds = (holder: Holder) => {
    for (const entry of entries.values()) {
      for (const id of [...entry.holders.keys()]) {
        if (id.startsWith(`${holder.worker}:`) && id !== holderId(holder)) entry.holders.delete(id);
      }
    }
  };

  const stopIdle = async (keep?: string) => {
    for (const entry of [...entries.values()]) {
      if (entry.key !== keep && entry.holders.size === 0) await stopEntry(entry, 'another stack starts');
    }
  };

  /** Refuses while a held distributed stack uses `brokers`: a second stack there would share its consumer groups. */
  const refuseOnBusyBroker = (brokers: string | null, keep?: string) => {
    const busy = [...entries.values()].find((e) => e.key !== keep && brokers !== null && e.stack.kafkaBrokers === brokers);
    if (busy)
      throw new Error(
        `the shared stack ${busy.id} (${busy.key}) runs on broker ${brokers} and a test file holds it: two distributed stacks on one broker would answer each other's requests`,
      );
  };

  const healthy = async (entry: Entry): Promise<boolean> => {
    if (entry.description.apps.some((app) => entry.stack.pid(app.name) === undefined)) return false;
    const status = await fetch(`${entry.stack.baseUrl}/readyz`, { signal: AbortSignal.timeout(5000) }).then(
      (r) => r.status,
      () => 0,
    );
    return status === 200;
  };

  const acquire = async (mode: StackMode, options: StackOptions, holder: Holder): Promise<SharedStackDescription> => {
    dropStaleHolds(holder);
    const key = sharingKey(mode, options);
    let entry = entries.get(key);
    if (entry && entry.holders.size === 0 && !(await healthy(entry))) {
      process.stderr.write(`shared stack ${entry.id} (${key}) no longer answers /readyz or lost an app: starting it anew\n`);
      await stopEntry(entry, 'unhealthy');
      entry = undefined;
    }
    await stopIdle(key);
    if (!entry) {
      const brokers = mode === 'distributed' ? process.env.KAFKA_BROKERS || null : null;
      refuseOnBusyBroker(brokers, key);
      const started = Date.now();
      // The run's broker named outright: a stack on a broker of its own would take a JVM per shared stack.
      const stack = await launchStack(mode, { ...options, ...(brokers && { kafkaBrokers: brokers }) });
      counts.sharedStarts += 1;
      counts.sharedStartMs += Date.now() - started;
      const id = `s${nextId++}`;
      entry = { id, key, stack, description: describeStack(id, stack, options), holders: new Map() };
      entries.set(key, entry);
    }
    counts.uses += 1;
    entry.holders.set(holderId(holder), (entry.holders.get(holderId(holder)) ?? 0) + 1);
    return entry.description;
  };

  const release = async (id: string, holder: Holder): Promise<void> => {
    const entry = [...entries.values()].find((e) => e.id === id);
    const held = entry?.holders.get(holderId(holder)) ?? 0;
    if (!entry || held === 0) return;
    if (held === 1) entry.holders.delete(holderId(holder));
    else entry.holders.set(holderId(holder), held - 1);
  };

  const makeRoom = async (brokers: string | null, holder: Holder): Promise<void> => {
    dropStaleHolds(holder);
    await stopIdle();
    refuseOnBusyBroker(brokers);
    counts.ownStarts += 1;
  };

  const routes: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    acquire: (b) => acquire(b.mode as StackMode, b.options as StackOptions, b.holder as Holder),
    release: (b) => release(b.id as string, b.holder as Holder).then(() => ({})),
    'make-room': (b) => makeRoom((b.brokers as string | null) ?? null, b.holder as Holder).then(() => ({})),
    'own-started': async (b) => {
      counts.ownStartMs += Number(b.ms) || 0;
      return {};
    },
  };

  // The token keeps other processes of the machine (other jest runs) from asking this run for stacks.
  const token = randomBytes(12).toString('hex');
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const [, given, name] = (request.url ?? '').split('/');
      const route = given === token && request.method === 'POST' ? routes[name] : undefined;
      const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(body));
      if (!route) return answer(404, { error: `no such registry route: ${request.method} ${name}` });
      serially(() => route(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>)).then(
        (body) => answer(200, body),
        (error: Error) => answer(409, { error: error.message }),
      );
    });
  });
  // A distributed stack takes a minute or more to start on a busy machine: the answer waits for it.
  server.requestTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    address: `http://127.0.0.1:${port}/${token}`,
    close: () =>
      serially(async () => {
        for (const entry of [...entries.values()]) await stopEntry(entry, 'the run ended');
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        const s = (ms: number) => `${Math.round(ms / 1000)} s`;
        return (
          `e2e stacks: ${counts.sharedStarts + counts.ownStarts} started: ${counts.sharedStarts} through the registry ` +
          `(in ${s(counts.sharedStartMs)}, for ${counts.uses} asks), ${counts.ownStarts} the files' own (in ${s(counts.ownStartMs)})`
        );
      }),
  };
}

/** The names of a stack's apps: one process all-in-one, each service (and each replica asked for) distributed. */
function appNames(mode: StackMode, options: StackOptions): string[] {
  if (mode === 'all-in-one') return [ALL_IN_ONE_APP.name];
  return DISTRIBUTED_APPS.flatMap((app) => [app.name, ...Array.from({ length: (options.replicas?.[app.name] ?? 1) - 1 }, (_, i) => `${app.name}-${i + 2}`)]);
}

function describeStack(id: string, stack: Stack, options: StackOptions): SharedStackDescription {
  const apps: SharedApp[] = appNames(stack.mode, options).map((name) => ({
    name,
    healthUrl: stack.healthUrl(name),
    environment: stack.environment(name),
    pid: stack.pid(name),
  }));
  return {
    id,
    mode: stack.mode,
    baseUrl: stack.baseUrl,
    edgeUrls: stack.edgeUrls,
    otlpGrpcAddress: stack.otlpGrpcAddress,
    apiKey: stack.apiKey,
    dataDir: stack.dataDir,
    databaseUrl: stack.databaseUrl,
    kafkaBrokers: stack.kafkaBrokers,
    kafkaEnv: stack.kafkaEnv,
    apps,
  };
}
