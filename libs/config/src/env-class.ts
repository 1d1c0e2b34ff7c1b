/**
 * A class of environment variables, as validateEnv reads one. An app's class is made of
 * blocks (withBus, withStore, withLog, …), each adding its variables with their rules to
 * the class it is given, so each variable is declared, documented and checked once.
 */
// A mixin's base takes any constructor arguments (TypeScript requires exactly `any[]` here).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EnvClass<T = object> = new (...args: any[]) => T;

/** No variables yet: the class blocks start from. */
export class Env {}
