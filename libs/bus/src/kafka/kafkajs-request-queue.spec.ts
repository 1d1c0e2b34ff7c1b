// kafkajs 2.2.4 (its last release) keeps a 1 ms timer looping on every broker connection
// of an idle client (kafkajs#1556): about 900 wake-ups a second per service, 0.20 of the
// 0.27 cores the distributed stack used at rest (docs/architecture.md).
// patches/kafkajs+2.2.4.patch, applied on install by patch-package, stops the loop; these
// tests fail if the patch is lost.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (options: object) => {
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  throttledUntil: number;
  pending: unknown[];
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
};

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

const queues: Array<InstanceType<typeof RequestQueue>> = [];

function queue() {
  const q = new RequestQueue({ maxInFlightRequests: null, requestTimeout: 5000, clientId: 'test', broker: 'b:9092', logger: silent });
  queues.push(q);
  return q;
}

describe('kafkajs RequestQueue, as patched', () => {
  // Unpatched, the loop would keep the test process alive.
  afterEach(() => queues.splice(0).forEach((q) => clearTimeout(q.throttleCheckTimeoutId ?? undefined)));

  it('schedules nothing when no request is pending and nothing throttles it', () => {
    const q = queue();
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks again when the broker throttles it, at the end of the throttle', () => {
    const q = queue();
    q.throttledUntil = Date.now() + 60_000;
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
  });

  it('still checks again while requests are pending', () => {
    const q = queue();
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    expect(q.throttleCheckTimeoutId).not.toBeNull();
  });
});
