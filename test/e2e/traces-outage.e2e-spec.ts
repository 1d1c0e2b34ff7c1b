import { expect } from '@jest/globals';
import { Api, ApiResponse, e2eMode } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { STACK_HOOK_TIMEOUT_MS, useStack, useStackOnOwnBroker } from './support/stack-hooks';
import { BATCH, SentTrace, TRACES, WAIT, aSpan, aTrace, at, ingest, readEventually } from './support/traces';
import { Answer } from './support/api-types';

/** Every trace answered 202 must come back whole: each span it was sent with, under its id. */
async function expectAllStored(api: Api, accepted: SentTrace[], timeoutMs: number): Promise<void> {
  for (const trace of accepted) {
    const sent = trace.spans.map((s) => s.id).sort();
    const stored = await readEventually(api, trace.id, (t) => t.spanCount === sent.length, timeoutMs);
    expect({ id: trace.id, spans: stored.spans.map((s) => s.id).sort() }).toEqual({ id: trace.id, spans: sent });
    expect(stored.name).toBe(trace.name);
  }
}

// What each mode loses when something underneath it dies: the distributed stack its
// Kafka broker, the all-in-one stack its own process.
if (e2eMode() === 'distributed') {
  describe('Trace ingest during a Kafka outage (distributed)', () => {
    const own = useStackOnOwnBroker();

    it('answers 503 unavailable with Retry-After, never 202, while the broker is down; every 202 is stored', async () => {
      const { api } = await inNewProject(own.stack.api());
      const accepted: SentTrace[] = [];
      for (let i = 0; i < 5; i += 1) {
        const trace = aTrace({ startTime: at(i * 1000) });
        await ingest(api, trace);
        accepted.push(trace);
      }
      // Killed at once: what the broker acknowledged is on its disk and reaches the store after it is back.
      await own.broker.stop();
      const during: ApiResponse[] = [];
      const attempts: Array<() => Promise<ApiResponse>> = [
        () => api.post(TRACES, aTrace(), { timeoutMs: 15_000 }),
        () => api.post(TRACES, aTrace(), { headers: WAIT, timeoutMs: 15_000 }),
        () => api.post(BATCH, { traces: [aTrace(), aTrace()] }, { timeoutMs: 15_000 }),
        () => api.post(TRACES, aTrace({ id: accepted[0].id, spans: [aSpan({ startTime: at(5) })] }), { timeoutMs: 15_000 }),
      ];
      for (const attempt of attempts) {
        const started = Date.now();
        // A hang would abort at 15 s and fail the test: the answer must come within 10 s.
        const response = await attempt();
        expect(Date.now() - started).toBeLessThanOrEqual(10_000);
        during.push(response);
      }
      for (const response of during) {
        expectProblem(response, 503, 'unavailable');
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }

      await own.broker.start();
      // Recovery: retry as a client would (on 503) until a 202 comes back.
      const deadline = Date.now() + 60_000;
      const statuses = new Set<number>();
      let recovered = false;
      while (!recovered && Date.now() < deadline) {
        const trace = aTrace({ startTime: at(100_000) });
        const response = await api.post(TRACES, trace, { timeoutMs: 15_000 }).catch(() => undefined);
        if (response) statuses.add(response.status);
        if (response?.status === 202) {
          accepted.push(trace);
          recovered = true;
        } else await sleep(1000);
      }
      expect({ recovered, statuses: [...statuses] }).toEqual({ recovered: true, statuses: expect.arrayContaining([202]) });
      expect([...statuses].filter((s) => s !== 202 && s !== 503)).toEqual([]);
      for (let i = 0; i < 3; i += 1) {
        const trace = aTrace({ startTime: at(200_000 + i) });
        await ingest(api, trace);
        accepted.push(trace);
      }
      // The one before the outage still has its three spans: the refused merge changed nothing.
      await expectAllStored(api, accepted, 60_000);
    }, 300_000);
  });
} else {
  describe('Trace ingest across a process crash (all-in-one)', () => {
    // Its own stack: the test kills it.
    const ctx = useStack({ own: true });

    it(
      'keeps every trace answered 202 when the process is killed with SIGKILL right after',
      async () => {
        const { api } = await inNewProject(ctx.api);
        const accepted: SentTrace[] = [];
        for (let i = 0; i < 10; i += 1) {
          const trace = aTrace({ startTime: at(i * 1000) });
          await ingest(api, trace);
          accepted.push(trace);
        }
        const batched = [aTrace(), aTrace({ spans: [aSpan(), aSpan()] })];
        const batch = await api.post<Answer<'ingestTraceBatch', 207>>(BATCH, { traces: batched });
        expect(batch.status).toBe(207);
        expect(batch.body).toMatchObject({ accepted: 2, rejected: 0 });
        accepted.push(...batched);
        // A merge onto a trace just accepted: both halves must survive.
        const extra = aSpan({ parentId: `${accepted[0].id}.root`, startTime: at(850) });
        await ingest(api, { id: accepted[0].id, spans: [extra] });
        accepted[0] = { ...accepted[0], spans: [...accepted[0].spans, extra] };

        await ctx.stack.kill('SIGKILL');
        await ctx.stack.restart();
        await expectAllStored(api, accepted, 30_000);
      },
      STACK_HOOK_TIMEOUT_MS,
    );
  });
}
