import { request } from 'node:http';

// The test files' side of the stack registry (shared-stack-registry.ts): where it answers, who
// asks, and the requests a file's own stack makes (stack.ts). Apart from shared-stacks.ts, which
// builds Stacks over shared ones, so that stack.ts and it do not import each other.

/**
 * Where a jest run's stack registry answers (shared-stack-registry.ts): set by the e2e suite's
 * global setup, read by the test files. Unset, every stack is a file's own.
 */
export const SHARED_STACKS_ENV = 'CINETRACE_SHARED_STACKS';

/** Who holds a shared stack: a jest worker and the test file it runs (one file at a time). */
export interface Holder {
  worker: string;
  file: string;
}

export function registryAddress(): string | undefined {
  return process.env[SHARED_STACKS_ENV] || undefined;
}

export function currentHolder(): Holder {
  // The file jest runs now (expect's state), so that the registry can drop what an earlier file of this worker left held.
  const state = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.();
  return { worker: process.env.JEST_WORKER_ID ?? String(process.pid), file: state?.testPath ?? '' };
}

/**
 * One request to the registry on a connection of its own: a kept-alive one can be closed by the
 * server just as the next request goes out on it (ECONNRESET), and jest's process runs the
 * registry beside the tests, so its timers fire late.
 */
export function askRegistry<T>(path: string, body: unknown): Promise<T> {
  const payload = JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const sent = request(
      `${registryAddress()}/${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          try {
            const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as T & { error?: string };
            if (response.statusCode !== 200) reject(new Error(answer.error ?? `the stack registry answered ${response.statusCode}`));
            else resolve(answer);
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    sent.on('error', reject);
    sent.end(payload);
  });
}

/**
 * Called before a file starts a stack of its own: the registry stops the shared stacks no file
 * holds (one at a time runs beside the file's), and refuses while one it hands out uses the
 * same broker (two stacks on a broker would answer each other's requests).
 */
export async function makeRoomForOwnStack(brokers: string | null): Promise<void> {
  if (!registryAddress()) return;
  await askRegistry('make-room', { brokers, holder: currentHolder() });
}

/** Tells the registry how long a file's own stack took to start: the run's summary counts them. */
export async function reportOwnStackStarted(ms: number): Promise<void> {
  if (!registryAddress()) return;
  await askRegistry('own-started', { ms });
}
