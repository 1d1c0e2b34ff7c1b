import { Api, Broker, Stack, StackOptions, acquireSharedStack, e2eMode, startBroker, startStack } from '@cinetrace/testing';

/** Starting a distributed stack can take most of the harness's 90 s readiness budget. */
export const STACK_HOOK_TIMEOUT_MS = 150_000;

export interface StackContext {
  readonly stack: Stack;
  /** An authenticated client for the stack. */
  readonly api: Api;
}

export interface UseStackOptions extends StackOptions {
  /**
   * A stack of the file's own, started and stopped with the describe: for a test that changes
   * its stack (restarts or kills it or an app), reads what the whole stack logged or counted,
   * or needs a store no other file has written to. Say why beside it.
   */
  own?: boolean;
}

/**
 * A stack for the current E2E_MODE during the enclosing describe's tests. Call at describe
 * level; read `stack` and `api` inside tests.
 *
 * By default the stack is shared: files of a jest run that ask for equal options (`env`,
 * `replicas`) get one stack, started by the first of them (test/e2e/support/shared-stacks-setup.ts).
 * Their tests make their own projects (inNewProject), so they need no store of their own.
 * A shared stack refuses restart, kill, killApp, startApp and output(); take `own: true` for those.
 * `options` may be a function, called when the stack starts: for settings known only once an
 * outer describe's hooks have run (the address of an S3 server, say); such a stack is the
 * file's own, as are stacks with options other than `env` and `replicas`.
 */
export function useStack(options: UseStackOptions | (() => StackOptions) = {}): StackContext {
  let stack: Stack | undefined;
  beforeAll(async () => {
    const mode = e2eMode();
    if (typeof options === 'function') stack = await startStack(mode, options());
    else {
      const { own, ...stackOptions } = options;
      stack = (!own && (await acquireSharedStack(mode, stackOptions))) || (await startStack(mode, stackOptions));
    }
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

export interface OwnBrokerContext {
  readonly stack: Stack;
  /** The stack's private Kafka-protocol broker, to stop and start in a test. */
  readonly broker: Broker;
}

/**
 * A distributed stack on a broker of its own, so that killing the broker disturbs no
 * other stack. Call at describe level, like useStack.
 */
export function useStackOnOwnBroker(options: StackOptions = {}): OwnBrokerContext {
  let broker: Broker | undefined;
  let stack: Stack | undefined;
  beforeAll(async () => {
    broker = await startBroker();
    stack = await startStack('distributed', { ...options, kafkaBrokers: broker.brokers });
  }, STACK_HOOK_TIMEOUT_MS);
  afterAll(async () => {
    await stack?.stop();
    await broker?.remove();
  }, STACK_HOOK_TIMEOUT_MS);
  return {
    get stack() {
      if (!stack) throw new Error('the stack did not start (see beforeAll)');
      return stack;
    },
    get broker() {
      if (!broker) throw new Error('the broker did not start (see beforeAll)');
      return broker;
    },
  };
}
