import { serveSharedStacks } from '../../../libs/testing/src/shared-stack-registry';
import { SHARED_STACKS_ENV } from '../../../libs/testing/src/shared-stack-client';

/**
 * Before the e2e suite's first file: the registry through which its files share stacks
 * (libs/testing/src/shared-stack-registry.ts). It starts no stack itself: the first file that
 * asks for a stack of some options starts it. `E2E_SHARED_STACKS=0` runs without it: every
 * file then starts and stops stacks of its own, as each did before.
 */
export default async function startStackRegistry(): Promise<void> {
  if (process.env.E2E_SHARED_STACKS === '0') return;
  const registry = await serveSharedStacks();
  // The test files (in this process under --runInBand, in workers forked after this otherwise) read it from their environment.
  process.env[SHARED_STACKS_ENV] = registry.address;
  (globalThis as StackRegistryGlobal).cinetraceStackRegistry = registry;
}

/** How the teardown (shared-stacks-teardown.ts) finds the registry: jest runs both in its own process, with one global object. */
export interface StackRegistryGlobal {
  cinetraceStackRegistry?: { close(): Promise<string> };
}
