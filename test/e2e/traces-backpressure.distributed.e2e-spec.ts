import { ApiResponse } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectProblem } from './support/expectations';
import { inNewProject } from './support/prompts';
import { useStackOnOwnBroker } from './support/stack-hooks';
import { untilRefused } from './support/until-refused';
import { BATCH, SentTrace, TRACES, aTrace, at, getTrace, ingest, readEventually } from './support/traces';

/** About twenty of the test's traces: the bound is in bytes, each record a trace as sent plus a small envelope. */
const TRACES_BEHIND = 20;
const MAX_LAG_BYTES = TRACES_BEHIND * JSON.stringify(aTrace()).length;

// Only the distributed mode acknowledges a trace before it is stored (the all-in-one
// answers after its commit), so only there can the store fall behind what was accepted;
// jest runs `*.distributed.e2e-spec.ts` in that mode alone (jest.config.js).
describe('Trace ingest backpressure (distributed)', () => {
  const own = useStackOnOwnBroker({ env: { TRACE_INGEST_MAX_LAG_BYTES: String(MAX_LAG_BYTES) } });

  it('answers 503 with Retry-After while trace-ingest is too far behind, and stores every trace it accepted', async () => {
    const { api } = await inNewProject(own.stack.api());
    // Stored and readable: trace-ingest consumes, and the gateway has read its lag.
    const first = aTrace({ startTime: at(0) });
    await ingest(api, first, { wait: true });
    await sleep(1500);

    await own.stack.killApp('trace-ingest');
    const accepted: SentTrace[] = [first];
    let refused: ApiResponse | undefined;
    for (let i = 1; i <= 10 * TRACES_BEHIND && !refused; i += 1) {
      const trace = aTrace({ startTime: at(i * 1000) });
      const response = await api.post(TRACES, trace);
      if (response.status === 202) accepted.push(trace);
      else refused = response;
    }

    // Refused once about TRACES_BEHIND traces wait unstored, not hundreds later.
    expect(refused).toBeDefined();
    expectProblem(refused!, 503, 'unavailable');
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(accepted.length - 1).toBeGreaterThanOrEqual(TRACES_BEHIND / 2);
    expect(accepted.length - 1).toBeLessThanOrEqual(TRACES_BEHIND * 1.5);

    // A batch is refused whole: none of its traces is published. Tried until refused, as the
    // OTLP exports are (untilRefused: a stale lag reading lets a batch through); a batch let
    // through is an accepted one, and must be stored.
    let refusedBatch: SentTrace[] = [];
    const batch = await untilRefused(
      async () => {
        refusedBatch = [aTrace(), aTrace()];
        const answer = await api.post(BATCH, { traces: refusedBatch });
        if (answer.status === 207) accepted.push(...refusedBatch);
        return answer;
      },
      (answer) => answer.status !== 207,
    );
    expectProblem(batch, 503, 'unavailable');
    expect(Number(batch.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // trace-ingest back: it catches up and the gateway accepts traces again.
    await own.stack.startApp('trace-ingest');
    const deadline = Date.now() + 90_000;
    let again: ApiResponse | undefined;
    const late = aTrace({ startTime: at(1_000_000) });
    while (Date.now() < deadline) {
      again = await api.post(TRACES, late);
      if (again.status === 202) break;
      await sleep(500);
    }
    expect(again?.status).toBe(202);
    accepted.push(late);

    for (const trace of accepted) {
      const stored = await readEventually(api, trace.id, (t) => t.spanCount === trace.spans.length, 30_000);
      expect(stored.name).toBe(trace.name);
    }
    for (const trace of refusedBatch) expect((await getTrace(api, trace.id)).status).toBe(404);
  }, 240_000);
});
