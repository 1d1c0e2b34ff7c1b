import { Api, api } from './api';
import type { StackMode } from './mode';
import { askRegistry, currentHolder, registryAddress } from './shared-stack-client';
import type { Stack, StackOptions } from './stack';

/**
 * What a shared stack may differ by. Every other option names something of the file that
 * asks (its data directory, its broker, its Redis, its database server): a stack on it would
 * outlive the file, so such a stack is always the file's own.
 */
const SHAREABLE_OPTIONS: ReadonlySet<string> = new Set(['env', 'replicas']);

export function isShareable(options: StackOptions): boolean {
  return Object.keys(options).every((name) => SHAREABLE_OPTIONS.has(name));
}

/** The same key for equal options, whatever order their names were written in. */
export function sharingKey(mode: StackMode, options: StackOptions): string {
  const sorted = (record: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(record ?? {}).sort(([a], [b]) => a.localeCompare(b)));
  return JSON.stringify({ mode, env: sorted(options.env), replicas: sorted(options.replicas) });
}

/** An app of a shared stack as a test file sees it. */
export interface SharedApp {
  name: string;
  healthUrl: string;
  environment: Record<string, string>;
  pid: number | undefined;
}

/** What the registry hands a file: everything of a Stack that is data. */
export interface SharedStackDescription {
  id: string;
  mode: StackMode;
  baseUrl: string;
  edgeUrls: string[];
  otlpGrpcAddress: string;
  apiKey: string;
  dataDir: string;
  databaseUrl: string | null;
  kafkaBrokers: string | null;
  kafkaEnv: Record<string, string> | null;
  apps: SharedApp[];
}

/**
 * The run's stack for `options` in `mode`, started by the first file that asks and reused by
 * the next; undefined when no registry runs (every stack is then the file's own). Its stop()
 * lets go of it; the registry stops it once a stack of other options starts, or at the end.
 */
export async function acquireSharedStack(mode: StackMode, options: StackOptions): Promise<Stack | undefined> {
  if (!registryAddress() || !isShareable(options)) return undefined;
  const holder = currentHolder();
  const description = await askRegistry<SharedStackDescription>('acquire', { mode, options: { env: options.env, replicas: options.replicas }, holder });
  return sharedStack(description, () => askRegistry('release', { id: description.id, holder }).then(() => undefined));
}

/** Whether a process of this machine has the id (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A Stack over a shared one: the addresses, key and apps it runs, and nothing that would
 * change it for the other files (restart, kill, start an app) or read what they made it log.
 */
function sharedStack(description: SharedStackDescription, release: () => Promise<void>): Stack {
  const { mode, baseUrl, apiKey } = description;
  const app = (name: string): SharedApp => {
    const found = description.apps.find((a) => a.name === name);
    if (!found) throw new Error(`no app named ${name} in this stack`);
    return found;
  };
  const refuse = (what: string) => async (): Promise<never> => {
    throw new Error(`${what}: this stack is shared with other test files; a test that changes its stack takes its own (useStack({ own: true }))`);
  };
  let released: Promise<void> | undefined;
  return {
    mode,
    baseUrl,
    edgeUrls: [...description.edgeUrls],
    otlpGrpcAddress: description.otlpGrpcAddress,
    apiKey,
    dataDir: description.dataDir,
    databaseUrl: description.databaseUrl,
    kafkaBrokers: description.kafkaBrokers,
    kafkaEnv: description.kafkaEnv && { ...description.kafkaEnv },
    api: (): Api => api(baseUrl, apiKey),
    output: () => {
      throw new Error(
        "output(): this stack is shared with other test files, and its output is theirs too; a test that reads its stack's output takes its own (useStack({ own: true }))",
      );
    },
    stop: () => (released ??= release()),
    restart: refuse('restart()'),
    kill: refuse('kill()'),
    killApp: refuse('killApp()'),
    startApp: refuse('startApp()'),
    // All-in-one: every app is the one process, as startStack answers.
    healthUrl: (name) => (mode === 'all-in-one' ? baseUrl : app(name).healthUrl),
    environment: (name) => ({ ...app(name).environment }),
    pid: (name) => {
      const { pid } = app(name);
      return pid !== undefined && alive(pid) ? pid : undefined;
    },
  };
}
