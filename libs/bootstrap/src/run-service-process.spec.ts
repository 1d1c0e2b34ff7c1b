import { expect } from '@jest/globals';
import { withBus, withHealthPort, withHeapSettings, withLog, Env } from '@cinetrace/config';
import { SHUTDOWN_DEADLINE_MS } from '@cinetrace/health';
import { freePort, waitFor } from '@cinetrace/testing';
import { Logger } from '@nestjs/common';
import { runServiceProcess, type RunningProcess, type ServiceProcess } from './run-service-process';

class TestEnv extends withHeapSettings(withHealthPort(withLog(withBus(Env)))) {}

describe('runServiceProcess', () => {
  const saved = { ...process.env };
  let exit: jest.SpyInstance<never, Parameters<typeof process.exit>>;
  let printed: jest.SpyInstance<void, Parameters<typeof console.error>>;

  // The shutdown's log lines are not what these tests read.
  beforeAll(() => {
    Logger.overrideLogger(false);
  });
  beforeEach(() => {
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    printed = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    process.env = { ...saved };
    process.removeAllListeners('SIGTERM');
    process.removeAllListeners('SIGINT');
    jest.restoreAllMocks();
  });

  it('prints one line naming the app and every missing variable, and exits 1, without starting the app', async () => {
    delete process.env.KAFKA_BROKERS;
    const start = jest.fn();
    runServiceProcess({ name: 'test-service', env: TestEnv, requires: ['KAFKA_BROKERS', 'SOMETHING_ELSE'], start });

    await waitFor(() => expect(exit).toHaveBeenCalled());
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed.mock.calls).toEqual([
      ['test-service failed to start: Invalid environment:\n  - KAFKA_BROKERS: required in the distributed mode\n  - SOMETHING_ELSE: required in the distributed mode'],
    ]);
    expect(start).not.toHaveBeenCalled();
  });

  it('names a failed start without the credentials of a URL in its message', async () => {
    process.env.KAFKA_BROKERS = '127.0.0.1:1';
    runServiceProcess({ name: 'test-service', env: TestEnv, requires: [], start: () => Promise.reject(new Error('cannot reach postgres://user:s3cret@db:5432/x')) });

    await waitFor(() => expect(exit).toHaveBeenCalled());
    expect(exit).toHaveBeenCalledWith(1);
    expect(printed.mock.calls[0][0]).toMatch(/^test-service failed to start: cannot reach postgres:\/\/.*db:5432\/x$/);
    expect(printed.mock.calls[0][0]).not.toContain('s3cret');
  });

  it('starts the app with its environment and Kafka connection, serves its readiness on HEALTH_PORT, and stops it on SIGTERM with exit 0', async () => {
    const port = await freePort();
    Object.assign(process.env, { KAFKA_BROKERS: '127.0.0.1:1, 127.0.0.2:2', HEALTH_PORT: String(port), LOG_LEVEL: 'silent' });
    let closed = false;
    const start = jest.fn<Promise<RunningProcess>, Parameters<ServiceProcess<TestEnv>['start']>>(async () => ({
      checks: { store: async () => true, bus: async () => false },
      close: async () => void (closed = true),
    }));
    runServiceProcess({ name: 'test-service', env: TestEnv, requires: ['KAFKA_BROKERS'], start });

    let readiness: { status: number; body: unknown } | undefined;
    for (let tries = 0; !readiness && tries < 100; tries++) {
      readiness = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        async (res) => ({ status: res.status, body: (await res.json()) as unknown }),
        () => undefined,
      );
      if (!readiness) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(start).toHaveBeenCalledWith(expect.objectContaining({ HEALTH_PORT: port, LOG_LEVEL: 'silent' }), expect.objectContaining({ brokers: ['127.0.0.1:1', '127.0.0.2:2'] }));
    expect(readiness).toMatchObject({ status: 503 });
    expect(JSON.stringify(readiness!.body)).toContain('bus');

    const timers = jest.spyOn(global, 'setTimeout');
    process.emit('SIGTERM', 'SIGTERM');
    await waitFor(() => expect(exit).toHaveBeenCalled(), 5000);
    expect(closed).toBe(true);
    expect(exit).toHaveBeenCalledWith(0);
    // process.exit is mocked, so the process lives on: its shutdown deadline must not fire later, in another spec.
    timers.mock.calls.forEach(([, ms], i) => ms === SHUTDOWN_DEADLINE_MS && clearTimeout(timers.mock.results[i].value as NodeJS.Timeout));
  });
});
