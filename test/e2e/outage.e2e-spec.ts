import { aProject, e2eMode } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { expectProblem } from './support/expectations';
import { STACK_HOOK_TIMEOUT_MS, useStack, useStackOnOwnBroker } from './support/stack-hooks';
import { Answer } from './support/api-types';

const PROJECTS = '/api/v1/projects';

// What each mode loses when something underneath it dies: the distributed stack its
// Kafka broker, the all-in-one stack its own process.
if (e2eMode() === 'distributed') {
  describe('Kafka outage (distributed)', () => {
    const own = useStackOnOwnBroker();

    it('answers 503 unavailable with Retry-After within 10 s while the broker is down, then recovers', async () => {
      const created = await own.stack.api().post<Answer<'createProject', 201>>(PROJECTS, aProject());
      expect(created.status).toBe(201);

      await own.broker.stop();
      for (let i = 0; i < 3; i += 1) {
        const started = Date.now();
        // A hang would abort at 15 s and fail the test: the answer must come within 10 s.
        const response = await own.stack.api().get(PROJECTS, undefined, { timeoutMs: 15_000 });
        expect(Date.now() - started).toBeLessThanOrEqual(10_000);
        expectProblem(response, 503, 'unavailable');
        expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      }
      const write = await own.stack.api().post(PROJECTS, aProject(), { timeoutMs: 15_000 });
      expectProblem(write, 503, 'unavailable');

      await own.broker.start();
      const deadline = Date.now() + 60_000;
      let status = 0;
      while (Date.now() < deadline) {
        status = await own.stack
          .api()
          .get(PROJECTS, undefined, { timeoutMs: 10_000 })
          .then(
            (r) => r.status,
            () => 0,
          );
        if (status === 200) break;
        await sleep(1000);
      }
      expect(status).toBe(200);
      // What was stored before the outage is all still there.
      expect((await own.stack.api().get<Answer<'getProject'>>(`${PROJECTS}/${created.body.id}`)).body).toEqual(created.body);
    }, 180_000);
  });
} else {
  describe('Process crash (all-in-one)', () => {
    // Its own stack: the test kills it.
    const ctx = useStack({ own: true });

    it(
      'keeps every acknowledged project after the process is killed with SIGKILL',
      async () => {
        const created = [];
        for (let i = 0; i < 5; i += 1) {
          const response = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, aProject());
          expect(response.status).toBe(201);
          created.push(response.body);
        }
        await ctx.stack.kill('SIGKILL');
        await ctx.stack.restart();
        for (const project of created) {
          expect((await ctx.api.get<Answer<'getProject'>>(`${PROJECTS}/${project.id}`)).body).toEqual(project);
        }
      },
      STACK_HOOK_TIMEOUT_MS,
    );
  });
}
