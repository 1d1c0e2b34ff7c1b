import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { AuthCache } from './auth-cache';
import type { ResolvedAuth } from './caller';

const auth = (orgId: string): ResolvedAuth => ({ orgId, apiKeyId: 'key_1', scopes: ['admin'], projectIds: null, instanceAdmin: false });

/** A lookup the test answers by hand, counting how often it was started. */
function manualLoad() {
  const pending: Array<{ resolve: (v: ResolvedAuth) => void; reject: (e: unknown) => void }> = [];
  const load = jest.fn(() => new Promise<ResolvedAuth>((resolve, reject) => pending.push({ resolve, reject })));
  return { load, answer: (v: ResolvedAuth) => pending.shift()!.resolve(v), fail: (e: unknown) => pending.shift()!.reject(e) };
}

const settle = () => new Promise((resolve) => jest.requireActual<typeof import('node:timers')>('node:timers').setImmediate(resolve));

describe('AuthCache', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('sends one lookup for requests that miss together, and answers them all with it', async () => {
    const cache = new AuthCache(5000);
    const { load, answer } = manualLoad();
    const waiting = Array.from({ length: 64 }, () => cache.resolve('k', load));
    answer(auth('org_1'));
    await expect(Promise.all(waiting)).resolves.toEqual(Array(64).fill(auth('org_1')));
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('refreshes an entry near the end of its life in the background, so no request waits for it', async () => {
    const cache = new AuthCache(5000);
    const { load, answer } = manualLoad();
    const first = cache.resolve('k', load);
    answer(auth('org_1'));
    await first;

    jest.setSystemTime(1_000_000 + 4100); // past four fifths of the TTL
    await expect(cache.resolve('k', load)).resolves.toEqual(auth('org_1')); // served without waiting
    await expect(cache.resolve('k', load)).resolves.toEqual(auth('org_1'));
    expect(load).toHaveBeenCalledTimes(2); // one refresh, however many requests
    answer(auth('org_1'));
    await settle();

    jest.setSystemTime(1_000_000 + 6000); // the first answer's life is over; the refreshed one's is not
    await expect(cache.resolve('k', load)).resolves.toEqual(auth('org_1'));
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('never serves an answer past its lifetime', async () => {
    const cache = new AuthCache(5000);
    const { load, answer, fail } = manualLoad();
    const first = cache.resolve('k', load);
    answer(auth('org_1'));
    await first;

    jest.setSystemTime(1_000_000 + 5001);
    const late = cache.resolve('k', load);
    fail(new DomainError(ErrorCode.Unauthenticated, 'revoked'));
    await expect(late).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('drops an entry whose refresh fails (a revoked key), and caches no failure', async () => {
    const cache = new AuthCache(5000);
    const { load, answer, fail } = manualLoad();
    const first = cache.resolve('k', load);
    answer(auth('org_1'));
    await first;

    jest.setSystemTime(1_000_000 + 4500);
    await cache.resolve('k', load); // starts the refresh
    fail(new DomainError(ErrorCode.Unauthenticated, 'revoked'));
    await settle();

    const next = cache.resolve('k', load); // asks again instead of serving the old answer
    expect(load).toHaveBeenCalledTimes(3);
    answer(auth('org_2'));
    await expect(next).resolves.toEqual(auth('org_2'));
  });

  it('looks every request up when the TTL is 0', async () => {
    const cache = new AuthCache(0);
    const load = jest.fn(async () => auth('org_1'));
    await cache.resolve('k', load);
    await cache.resolve('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
