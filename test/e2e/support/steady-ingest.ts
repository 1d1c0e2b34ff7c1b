import { Api, Stack } from '@cinetrace/testing';
import { Client } from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { SentTrace, TRACES, aTrace, at } from './traces';

/** One trace POST of a steady ingest: what came back, and how long it took (status 0: no answer in time). */
export interface IngestAttempt {
  trace: SentTrace;
  status: number;
  retryAfter: string | null;
  ms: number;
}

/**
 * Clients posting traces one after another, `clients` at a time, until stopped: the load
 * a test keeps up while it kills something underneath. Each trace has three spans.
 */
export class SteadyIngest {
  readonly attempts: IngestAttempt[] = [];
  private running = false;
  private loops: Promise<void>[] = [];
  private sequence = 0;

  constructor(
    private readonly api: Api,
    private readonly options: { clients?: number; timeoutMs?: number; pauseMs?: number } = {},
  ) {}

  start(): this {
    this.running = true;
    this.loops = Array.from({ length: this.options.clients ?? 4 }, () => this.loop());
    return this;
  }

  async stop(): Promise<IngestAttempt[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.attempts;
  }

  get accepted(): SentTrace[] {
    return this.attempts.filter((a) => a.status === 202).map((a) => a.trace);
  }

  /** Resolves once `count` more traces were accepted than when called. */
  async acceptedMore(count: number, timeoutMs = 60_000): Promise<void> {
    const target = this.accepted.length + count;
    const deadline = Date.now() + timeoutMs;
    while (this.accepted.length < target) {
      if (Date.now() > deadline) throw new Error(`fewer than ${count} traces accepted within ${timeoutMs} ms`);
      await sleep(100);
    }
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const trace = aTrace({ startTime: at((this.sequence += 1) * 1000) });
      const started = Date.now();
      const response = await this.api.post(TRACES, trace, { timeoutMs: this.options.timeoutMs ?? 15_000 }).catch(() => undefined);
      this.attempts.push({ trace, status: response?.status ?? 0, retryAfter: response?.headers.get('retry-after') ?? null, ms: Date.now() - started });
      if (response?.status !== 202) await sleep(this.options.pauseMs ?? 100);
    }
  }
}

/**
 * Of the given traces, the span rows and distinct traces trace-ingest stored (a span stored
 * twice would count twice; a trace lost, not at all).
 */
export async function storedOf(stack: Stack, projectId: string, traceIds: string[]): Promise<{ spans: number; traces: number }> {
  const client = new Client({ connectionString: stack.databaseUrl! });
  await client.connect();
  try {
    const { rows } = await client.query<{ spans: number; traces: number }>(
      'SELECT count(*)::int AS spans, count(DISTINCT trace_id)::int AS traces FROM trace_ingest.spans WHERE project_id = $1 AND trace_id = ANY($2)',
      [projectId, traceIds],
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

/** Waits until every accepted trace is stored with its three spans, each once; fails with what is stored otherwise. */
export async function expectAcceptedStored(stack: Stack, projectId: string, accepted: SentTrace[], timeoutMs = 90_000): Promise<void> {
  const ids = accepted.map((t) => t.id);
  const expected = { spans: accepted.reduce((n, t) => n + t.spans.length, 0), traces: ids.length };
  const deadline = Date.now() + timeoutMs;
  let seen = await storedOf(stack, projectId, ids);
  while ((seen.spans !== expected.spans || seen.traces !== expected.traces) && Date.now() < deadline) {
    await sleep(500);
    seen = await storedOf(stack, projectId, ids);
  }
  expect(seen).toEqual(expected);
}
