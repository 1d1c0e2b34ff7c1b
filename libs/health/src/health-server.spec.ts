import { HealthServer } from './health-server';

const servers: HealthServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function started(checks: Record<string, () => Promise<boolean>>): Promise<string> {
  const server = new HealthServer({ port: 0, host: '127.0.0.1', checks, checkDeadlineMs: 200 });
  servers.push(server);
  return `http://127.0.0.1:${await server.listen()}`;
}

async function get(url: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

describe('HealthServer', () => {
  it('answers /healthz while the process runs, whatever its dependencies', async () => {
    const base = await started({ store: async () => false });
    expect(await get(`${base}/healthz`)).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('is ready when every dependency answers, and names each', async () => {
    const base = await started({ store: async () => true, bus: async () => true });
    expect(await get(`${base}/readyz`)).toEqual({ status: 200, body: { status: 'ok', checks: { store: 'up', bus: 'up' } } });
  });

  it('answers 503 naming a dependency that is down, throws or hangs', async () => {
    const base = await started({
      store: async () => true,
      bus: async () => false,
      queue: () => Promise.reject(new Error('ECONNREFUSED')),
      cache: () => new Promise<boolean>(() => undefined),
    });
    const started_ = Date.now();
    expect(await get(`${base}/readyz`)).toEqual({
      status: 503,
      body: { status: 'unavailable', checks: { store: 'up', bus: 'down', queue: 'down', cache: 'down' } },
    });
    expect(Date.now() - started_).toBeLessThan(1500);
  });

  it('answers 503 once draining, even with every dependency up', async () => {
    const server = new HealthServer({ port: 0, host: '127.0.0.1', checks: { store: async () => true } });
    servers.push(server);
    const base = `http://127.0.0.1:${await server.listen()}`;
    server.markDraining();
    expect(await get(`${base}/readyz`)).toEqual({ status: 503, body: { status: 'draining' } });
    expect((await get(`${base}/healthz`)).status).toBe(200);
  });

  it("answers /metrics with the process's registry in Prometheus text", async () => {
    const base = await started({});
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE cinetrace_bus_request_duration_seconds histogram');
    expect(text).toContain('# TYPE cinetrace_ingest_traces_accepted_total counter');
  });

  it('answers 404 elsewhere', async () => {
    const base = await started({});
    expect((await get(`${base}/nothing`)).status).toBe(404);
  });
});
