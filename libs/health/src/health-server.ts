import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { METRICS_CONTENT_TYPE, metricsText } from '@cinetrace/metrics';
import { CHECK_DEADLINE_MS, checkReadiness, type DependencyChecks } from './readiness';

export interface HealthServerOptions {
  port: number;
  host?: string;
  checks: DependencyChecks;
  /** How long each check may take (CHECK_DEADLINE_MS by default). */
  checkDeadlineMs?: number;
}

/**
 * The probes of a process that serves no HTTP API of its own (a bus service, the worker):
 * `GET /healthz` answers while the process runs; `GET /readyz` answers 200 when every
 * dependency is reachable, and 503 naming those that are not, or once the process drains;
 * `GET /metrics` answers the process's Prometheus metrics (unauthenticated, as the
 * gateway's own /metrics: they hold counts and latencies, never ids, keys or messages).
 */
export class HealthServer {
  private readonly server: Server;
  private draining = false;

  constructor(private readonly options: HealthServerOptions) {
    this.server = createServer((req, res) => void this.answer(req, res));
    // Probes are short requests: an idle kept-alive socket must not hold up the close.
    this.server.keepAliveTimeout = 1000;
  }

  async listen(): Promise<number> {
    await new Promise<void>((ready, fail) => {
      this.server.once('error', fail);
      this.server.listen(this.options.port, this.options.host ?? '0.0.0.0', () => {
        this.server.off('error', fail);
        ready();
      });
    });
    return (this.server.address() as AddressInfo).port;
  }

  /** From now on /readyz answers 503: the orchestrator stops sending work while the process finishes what it holds. */
  markDraining(): void {
    this.draining = true;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise<void>((closed) => this.server.close(() => closed()));
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, { status: 'method_not_allowed' });
    if (path === '/healthz') return send(res, 200, { status: 'ok' });
    if (path === '/metrics') return sendMetrics(res);
    if (path !== '/readyz') return send(res, 404, { status: 'not_found' });
    if (this.draining) return send(res, 503, { status: 'draining' });
    const report = await checkReadiness(this.options.checks, this.options.checkDeadlineMs ?? CHECK_DEADLINE_MS);
    send(res, report.ready ? 200 : 503, { status: report.ready ? 'ok' : 'unavailable', checks: report.checks });
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}

async function sendMetrics(res: ServerResponse): Promise<void> {
  try {
    const text = await metricsText();
    res.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(text);
  } catch {
    // A collector failed (its dependency is down): say so without the error's text.
    send(res, 500, { status: 'metrics_unavailable' });
  }
}

/** The probes on `port`, when the environment names one; none otherwise (local runs, tests). */
export async function startHealthServer(port: number | undefined, checks: DependencyChecks): Promise<HealthServer | undefined> {
  if (port === undefined) return undefined;
  const server = new HealthServer({ port, checks });
  await server.listen();
  return server;
}
