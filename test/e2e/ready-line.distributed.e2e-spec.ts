import { AppProcess, createDatabase, dropRedisPrefix, freePort, type TestDatabase } from '@cinetrace/testing';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/traces';

const REDIS_URL = process.env.E2E_REDIS_URL || 'redis://127.0.0.1:6379';

// `npm run start:distributed` starts every app and announces the whole once the gateway is
// ready: its ready line must name the OTLP/gRPC port only when the gateway took it, as the
// all-in-one's does (ready-line.e2e-spec.ts).
describe('The ready line of start:distributed names only what listens', () => {
  let dir: string;
  let holder: Server;
  let takenPort: number;
  let database: TestDatabase;
  const queuePrefix = `ct-e2e-${randomBytes(6).toString('hex')}`;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cinetrace-ready-line-'));
    database = await createDatabase();
    // Another program already holds the gRPC port (a collector on the same machine, often).
    holder = createServer();
    await new Promise<void>((ready) => holder.listen(0, '127.0.0.1', ready));
    takenPort = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((closed) => holder.close(() => closed()));
    await database.drop();
    await dropRedisPrefix(REDIS_URL, queuePrefix);
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTP when OTLP_GRPC_PORT is taken, and its ready line names no gRPC', async () => {
    const port = await freePort();
    const start = new AppProcess('start-distributed', 'scripts/start-distributed.js', {
      PATH: process.env.PATH ?? '',
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: String(port),
      OTLP_GRPC_PORT: String(takenPort),
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
      DATABASE_URL: database.url,
      REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      SECRETS_KEY: randomBytes(32).toString('base64'),
    });
    try {
      const ready = await eventually(
        'the ready line',
        async () =>
          start
            .output()
            .split('\n')
            .find((line) => line.includes('Ready (distributed)')),
        150_000,
        250,
      );
      expect(start.output()).toContain(`OTLP/gRPC could not listen on 127.0.0.1:${takenPort}`);
      expect(ready).not.toContain('gRPC');
      expect(ready).toContain(`OTLP http://127.0.0.1:${port}/v1/traces`);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    } finally {
      // It stops its apps on SIGTERM and exits once they have.
      await start.stop(30_000);
    }
  }, 240_000);
});
