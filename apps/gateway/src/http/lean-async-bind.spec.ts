import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { useLeanAsyncResourceBind } from './lean-async-bind';

describe('the lean AsyncResource#bind', () => {
  const original = AsyncResource.prototype.bind;
  beforeAll(() => useLeanAsyncResourceBind());
  afterAll(() => {
    AsyncResource.prototype.bind = original;
  });

  it('is installed, and runs the bound function in the async context it was bound in', async () => {
    expect(AsyncResource.prototype.bind).not.toBe(original);
    const store = new AsyncLocalStorage<string>();
    const bound = store.run('request-1', () => AsyncResource.bind(() => store.getStore()));
    const unbound = store.run('request-1', () => () => store.getStore());
    // Called later from outside that context, as a parser's callback or an interceptor's next is.
    const later = await new Promise<[string | undefined, string | undefined]>((resolve) => setImmediate(() => resolve([bound(), unbound()])));
    expect(later).toEqual(['request-1', undefined]);
  });

  it('runs in the resource’s own scope, passes `this` and the arguments through, or binds thisArg', () => {
    const resource = new AsyncResource('test');
    const seen = resource.bind(function (this: unknown, a: number, b: number) {
      return { self: this, sum: a + b, id: executionAsyncId() };
    });
    const owner = { name: 'caller' };
    expect(seen.call(owner, 2, 3)).toEqual({ self: owner, sum: 5, id: resource.asyncId() });
    // Node's typings leave thisArg out of bind; the runtime takes it.
    const bindTo = resource.bind.bind(resource) as unknown as <F extends (...args: never[]) => unknown>(fn: F, thisArg: unknown) => F;
    const fixed = bindTo(function (this: unknown) {
      return this;
    }, owner);
    expect(fixed.call({ other: true })).toBe(owner);
  });

  it('keeps the function’s length, has no deprecated asyncResource property, and refuses a non-function', () => {
    const bound = new AsyncResource('test').bind((a: number, b: number) => a + b);
    expect(bound.length).toBe(2);
    expect(Object.getOwnPropertyNames(bound)).not.toContain('asyncResource');
    expect(() => new AsyncResource('test').bind(42 as unknown as () => void)).toThrow(TypeError);
  });
});
