import { aProject, unique } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { STACK_HOOK_TIMEOUT_MS, useStack } from './support/stack-hooks';
import { Answer, Schema } from './support/api-types';

const PROJECTS = '/api/v1/projects';

/** What a client holds across a restart (a deploy): data, idempotency keys, cursors. */
describe('A restart of the stack', () => {
  // Its own stack: the tests restart it.
  const ctx = useStack({ own: true });
  const projects: Schema<'ProjectView'>[] = [];
  const idempotencyKey = unique('idem');
  const idempotentBody = aProject();
  let idempotentFirst: { status: number; body: unknown };
  let cursor: string;
  let pageTwoBefore: string[];

  beforeAll(async () => {
    for (let i = 0; i < 4; i += 1) projects.push((await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, aProject())).body);
    const first = await ctx.api.withIdempotencyKey(idempotencyKey).post(PROJECTS, idempotentBody);
    expect(first.status).toBe(201);
    idempotentFirst = { status: first.status, body: first.body };
    cursor = (await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { limit: 2 })).body.nextCursor!;
    pageTwoBefore = (await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { limit: 2, cursor })).body.data.map((p: { id: string }) => p.id);
    await ctx.stack.restart();
  }, STACK_HOOK_TIMEOUT_MS);

  it('keeps every project', async () => {
    for (const project of projects) {
      const read = await ctx.api.get<Answer<'getProject'>>(`${PROJECTS}/${project.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(project);
    }
  });

  it('still replays an idempotent POST made before it', async () => {
    const again = await ctx.api.withIdempotencyKey(idempotencyKey).post(PROJECTS, idempotentBody);
    expect({ status: again.status, body: again.body }).toEqual(idempotentFirst);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const named = await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { args: JSON.stringify({ name: idempotentBody.name }) });
    expect(named.body.data).toHaveLength(1);
  });

  it('still refuses that idempotency key with another body', async () => {
    expectProblem(await ctx.api.withIdempotencyKey(idempotencyKey).post(PROJECTS, aProject()), 422, 'idempotency_key_reused');
  });

  it('still accepts a cursor issued before it', async () => {
    const page = await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { limit: 2, cursor });
    expect(page.status).toBe(200);
    expect(page.body.data.map((p: { id: string }) => p.id)).toEqual(pageTwoBefore);
  });

  it(
    'keeps deriving keys from what is stored',
    async () => {
      const name = unique('After restart');
      const first = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, { name });
      await ctx.stack.restart();
      const second = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, { name });
      expect(second.status).toBe(201);
      expect(second.body.key).toBe(`${first.body.key}-2`);
    },
    STACK_HOOK_TIMEOUT_MS,
  );
});
