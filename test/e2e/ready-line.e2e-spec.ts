import { ALL_IN_ONE_APP, AppProcess } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './support/traces';

// The ready line is what a person reads to know where to send traces: it names the OTLP/gRPC
// port only when the service listens there. (The all-in-one process of either e2e mode.)
describe('The ready line names only what listens', () => {
  let dir: string;
  let holder: Server;
  let takenPort: number;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cinetrace-ready-line-'));
    // Another program already holds the gRPC port (a collector on the same machine, often).
    holder = createServer();
    await new Promise<void>((ready) => holder.listen(0, '127.0.0.1', ready));
    takenPort = (holder.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise<void>((closed) => holder.close(() => closed()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTP when OTLP_GRPC_PORT is taken, says why gRPC is off, and its ready line names the HTTP port it took and no gRPC', async () => {
    const app = new AppProcess('all-in-one', ALL_IN_ONE_APP.entry, {
      PATH: process.env.PATH ?? '',
      DATA_DIR: join(dir, 'data'),
      HOST: '127.0.0.1',
      PORT: '0',
      OTLP_GRPC_PORT: String(takenPort),
      LOG_FORMAT: 'json',
    });
    try {
      const ready = await eventually(
        'the ready line',
        async () =>
          app
            .output()
            .split('\n')
            .find((line) => line.includes('Ready (all-in-one)')),
        60_000,
      );
      expect(app.output()).toContain(`OTLP/gRPC could not listen on 127.0.0.1:${takenPort}`);
      expect(ready).not.toContain('gRPC');
      // It names the port HTTP took (PORT=0: the system's choice), and HTTP answers there.
      const api = /API (http:\/\/127\.0\.0\.1:\d+)\/api\/v1/.exec(ready)![1];
      expect(ready).toContain(`OTLP ${api}/v1/traces`);
      expect((await fetch(`${api}/healthz`)).status).toBe(200);
    } finally {
      await app.stop();
    }
  }, 90_000);
});
