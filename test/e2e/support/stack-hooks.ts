import { Api, Stack, StackOptions, e2eMode, startStack } from '@cinetrace/testing';

/** Starting a distributed stack can take most of the harness's 90 s readiness budget. */
export const STACK_HOOK_TIMEOUT_MS = 150_000;

export interface StackContext {
  readonly stack: Stack;
  /** An authenticated client for the stack. */
  readonly api: Api;
}

/**
 * Starts a stack for the current E2E_MODE before the enclosing describe's tests and
 * stops it after them. Call at describe level; read `stack` and `api` inside tests.
 */
export function useStack(options: StackOptions = {}): StackContext {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(e2eMode(), options);
  }, STACK_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.stop();
  }, STACK_HOOK_TIMEOUT_MS);
  const started = (): Stack => {
    if (!stack) throw new Error('the stack did not start (see beforeAll)');
    return stack;
  };
  return {
    get stack() {
      return started();
    },
    get api() {
      return started().api();
    },
  };
}
