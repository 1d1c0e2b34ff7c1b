import { RequestsInFlight } from './requests-in-flight';

describe('RequestsInFlight', () => {
  const deferred = () => {
    let resolve = (): void => undefined;
    const promise = new Promise<void>((r) => (resolve = r));
    return { promise, resolve };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  it('says full once at the bound, and room once when one ends', async () => {
    const events: string[] = [];
    const limit = new RequestsInFlight(
      2,
      () => events.push('full'),
      () => events.push('room'),
    );
    const [a, b] = [deferred(), deferred()];
    limit.add(a.promise);
    expect(events).toEqual([]);
    limit.add(b.promise);
    expect(events).toEqual(['full']);
    a.resolve();
    await tick();
    expect(events).toEqual(['full', 'room']);
    b.resolve();
    await tick();
    expect(events).toEqual(['full', 'room']);
    expect(limit.size).toBe(0);
  });

  it('settles once every request ended, those added meanwhile too', async () => {
    const limit = new RequestsInFlight(
      10,
      () => undefined,
      () => undefined,
    );
    const [a, b] = [deferred(), deferred()];
    limit.add(a.promise);
    let settled = false;
    const done = limit.settled().then(() => (settled = true));
    limit.add(b.promise);
    a.resolve();
    await tick();
    expect(settled).toBe(false);
    b.resolve();
    await done;
    expect(limit.size).toBe(0);
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(
      () =>
        new RequestsInFlight(
          0,
          () => undefined,
          () => undefined,
        ),
    ).toThrow(RangeError);
  });
});
