import { expect } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { inNewProject } from './support/prompts';
import { useStackOnOwnBroker } from './support/stack-hooks';
import { SteadyIngest, expectAcceptedStored } from './support/steady-ingest';

jest.setTimeout(300_000);

/** The gateway's default: no answer may take longer while the broker is down. */
const BUS_TIMEOUT_MS = 5000;
const APPS = ['project-service', 'prompt-service', 'trace-ingest', 'benchmark-service', 'benchmark-worker', 'media-service'];

// A real broker keeps what it acknowledged across a crash: SIGKILL it under steady load,
// and nothing that got a 202 may be lost, nothing may hang, no app may need a restart.
describe('Trace ingest while the Kafka broker is SIGKILLed and comes back (distributed)', () => {
  const own = useStackOnOwnBroker({ env: { BUS_TIMEOUT_MS: String(BUS_TIMEOUT_MS) } });

  it('answers 503 with Retry-After while it is down, stores every 202 exactly once, and resumes on its own', async () => {
    const { api, projectId } = await inNewProject(own.stack.api());
    const ingest = new SteadyIngest(api, { clients: 4, timeoutMs: BUS_TIMEOUT_MS + 10_000 }).start();
    await ingest.acceptedMore(50);

    await own.broker.stop(); // SIGKILL: acknowledged records are on its disk, nothing else
    const downFrom = ingest.attempts.length;
    await sleep(8000);
    const whileDown = ingest.attempts.slice(downFrom);
    await own.broker.start();
    await ingest.acceptedMore(50, 90_000);
    const attempts = await ingest.stop();

    // Some attempts were answered while the broker was down, each with 503 and Retry-After.
    const downAnswers = whileDown.filter((a) => a.status !== 202);
    expect(downAnswers.length).toBeGreaterThan(0);
    for (const a of attempts.filter((a) => a.status !== 202)) {
      expect({ status: a.status, retryAfter: a.retryAfter }).toEqual({ status: 503, retryAfter: expect.stringMatching(/^\d+$/) });
    }
    // Never a hang: every answer, refused or not, within the bus timeout (and a second of slack).
    expect(Math.max(...attempts.map((a) => a.ms))).toBeLessThanOrEqual(BUS_TIMEOUT_MS + 1000);

    await expectAcceptedStored(own.stack, projectId, ingest.accepted);
    // Every app is still the process it was: each answers its liveness probe.
    for (const app of APPS) {
      const live = await fetch(`${own.stack.healthUrl(app)}/healthz`).catch(() => undefined);
      expect({ app, status: live?.status }).toEqual({ app, status: 200 });
    }
  });
});
