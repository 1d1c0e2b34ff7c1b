import { Api, Broker, Stack, StackOptions, e2eMode, startBroker, startStack } from '@cinetrace/testing';

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
 * `options` may be a function, called when the stack starts: for settings known only once an
 * outer describe's hooks have run (the address of an S3 server, say).
 */
export function useStack(options: StackOptions | (() => StackOptions) = {}): StackContext {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack(e2eMode(), typeof options === 'function' ? options() : options);
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
