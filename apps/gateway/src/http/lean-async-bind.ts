import { AsyncResource } from 'node:async_hooks';

type AnyFunction = (...args: unknown[]) => unknown;

/**
 * Node 20's `AsyncResource#bind` without the deprecated `asyncResource` getter and setter
 * (DEP0172) it defines on every bound function: each is a fresh `util.deprecate` wrapper,
 * which makes a bind many times dearer, and Fastify's body parser and each Nest interceptor
 * bind once per request. The bound function runs `fn` in the resource's async scope exactly as
 * Node's does (`this` passed through, or `thisArg`; the same `length`); only that deprecated
 * property is gone, and nothing this service loads reads it.
 */
export function useLeanAsyncResourceBind(): void {
  (AsyncResource.prototype as { bind: unknown }).bind = leanBind;
}

function leanBind(this: AsyncResource, fn: AnyFunction, thisArg?: unknown): AnyFunction {
  if (typeof fn !== 'function') throw new TypeError(`The "fn" argument must be of type function. Received ${typeof fn}`);
  const resource = this;
  const bound: AnyFunction =
    thisArg === undefined
      ? function (this: unknown, ...args: unknown[]) {
          return resource.runInAsyncScope(fn, this, ...args);
        }
      : (resource.runInAsyncScope.bind(resource, fn, thisArg) as AnyFunction);
  Object.defineProperty(bound, 'length', { configurable: true, enumerable: false, value: fn.length, writable: false });
  return bound;
}
