import { expect } from '@jest/globals';
import { Api, aProject } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

const PROJECTS = '/api/v1/projects';

async function seedAndTakeCursor(client: Api): Promise<string> {
  for (let i = 0; i < 3; i += 1) expect((await client.post(PROJECTS, aProject())).status).toBe(201);
  const page = await client.get<Answer<'listProjects'>>(PROJECTS, { limit: 1 });
  expect(typeof page.body.nextCursor).toBe('string');
  return page.body.nextCursor!;
}

// Two stores started one after the other, each bootstrapping its own organization.
describe('A cursor from another organization', () => {
  let foreignCursor: string;

  describe('organization A', () => {
    const ctx = useStack();
    it('hands out a cursor', async () => {
      foreignCursor = await seedAndTakeCursor(ctx.api);
    });
  });

  describe('organization B', () => {
    // Its own stack, a store other than A's (A may share the run's).
    const ctx = useStack({ own: true });
    it('rejects organization A’s cursor: 400 invalid_cursor', async () => {
      await seedAndTakeCursor(ctx.api);
      expect(foreignCursor).toEqual(expect.any(String));
      expectProblem(await ctx.api.get(PROJECTS, { limit: 1, cursor: foreignCursor }), 400, 'invalid_cursor');
    });
  });
});
