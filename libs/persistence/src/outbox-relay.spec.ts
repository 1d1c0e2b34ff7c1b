import { OutboxRelay, OutboxRelayProvider } from './outbox-relay';

const timing = { sweepMs: 60_000, firstRetryMs: 20, maxRetryMs: 80 };
const until = async (done: () => boolean, ms = 3_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('OutboxRelay', () => {
  let relay: OutboxRelay | undefined;
  afterEach(() => relay?.stop());

  it('hands over batch after batch while more may wait', async () => {
    let left = 3;
    relay = new OutboxRelay('spec', async () => --left > 0, timing);
    relay.start();
    await relay.idle();
    expect(left).toBe(0);
  });

  it('retries a failed hand-over by itself, waiting longer after each failure', async () => {
    const tries: number[] = [];
    relay = new OutboxRelay(
      'spec',
      async () => {
        tries.push(Date.now());
        if (tries.length < 4) throw new Error('the receiver is away');
        return false;
      },
      timing,
    );
    relay.start();
    await until(() => tries.length >= 4);
    expect(tries).toHaveLength(4);
    const waits = tries.slice(1).map((at, i) => at - tries[i]);
    // 20, 40, 80 ms (timers fire no earlier than asked).
    expect(waits[0]).toBeGreaterThanOrEqual(19);
    expect(waits[1]).toBeGreaterThanOrEqual(39);
    expect(waits[2]).toBeGreaterThanOrEqual(79);
  });

  it('runs once more when woken during a hand-over, and not at all before start or after stop', async () => {
    let runs = 0;
    let release!: () => void;
    relay = new OutboxRelay(
      'spec',
      async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
        return false;
      },
      timing,
    );
    relay.wake();
    expect(runs).toBe(0);
    relay.start();
    relay.wake();
    relay.wake();
    release();
    await relay.idle();
    expect(runs).toBe(2);
    await relay.stop();
    relay.wake();
    await relay.idle();
    expect(runs).toBe(2);
  });
});

describe('OutboxRelayProvider', () => {
  /** A provider whose outbox holds `rows` batches. */
  class CountingRelay extends OutboxRelayProvider {
    handedOver = 0;
    constructor(private rows: number) {
      super('spec', timing);
    }
    queue(batches: number): void {
      this.rows += batches;
    }
    protected async handOverBatch(): Promise<boolean> {
      if (this.rows === 0) return false;
      this.rows -= 1;
      this.handedOver += 1;
      return this.rows > 0;
    }
  }

  it('empties its outbox once the app is up, and hands nothing over after the app closed', async () => {
    const provider = new CountingRelay(3);
    provider.wake();
    await provider.idle();
    expect(provider.handedOver).toBe(0);
    provider.onApplicationBootstrap();
    await provider.idle();
    expect(provider.handedOver).toBe(3);
    await provider.onApplicationShutdown();
    provider.queue(2);
    provider.wake();
    await provider.idle();
    expect(provider.handedOver).toBe(3);
  });
});
