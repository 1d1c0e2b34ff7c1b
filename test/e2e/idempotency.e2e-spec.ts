import { aProject, unique } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { aPrompt, inNewProject, PROMPTS } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

const PROJECTS = '/api/v1/projects';

describe('Idempotency-Key on POST', () => {
  const ctx = useStack();
  const countNamed = async (name: string) => (await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { args: JSON.stringify({ name }) })).body.data.length;

  it('replays the first answer for the same key and body, and creates nothing more', async () => {
    const client = ctx.api.withIdempotencyKey(unique('idem'));
    const project = aProject();
    const first = await client.post<Answer<'createProject', 201>>(PROJECTS, project);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).not.toBe('true');

    const again = await client.post<Answer<'createProject', 201>>(PROJECTS, project);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await countNamed(project.name as string)).toBe(1);
  });

  it('replays the ETag of a created prompt with its body', async () => {
    const { api } = await inNewProject(ctx.api);
    const client = api.withIdempotencyKey(unique('idem'));
    const prompt = aPrompt();
    const first = await client.post<Answer<'createPrompt', 201>>(PROMPTS, prompt);
    expect(first.status).toBe(201);
    expect(first.headers.get('etag')).toBe(`"${first.body.id}:1"`);

    const again = await client.post<Answer<'createPrompt', 201>>(PROMPTS, prompt);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(again.body).toEqual(first.body);
  });

  it('answers 422 idempotency_key_reused for the same key with another body, and creates nothing', async () => {
    const client = ctx.api.withIdempotencyKey(unique('idem'));
    expect((await client.post(PROJECTS, aProject())).status).toBe(201);
    const other = aProject();
    expectProblem(await client.post(PROJECTS, other), 422, 'idempotency_key_reused');
    expect(await countNamed(other.name as string)).toBe(0);
  });

  it('creates again for a new key with the same body', async () => {
    const project = aProject();
    const first = await ctx.api.withIdempotencyKey(unique('idem')).post<Answer<'createProject', 201>>(PROJECTS, project);
    const second = await ctx.api.withIdempotencyKey(unique('idem')).post<Answer<'createProject', 201>>(PROJECTS, project);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.body.id).not.toBe(first.body.id);
    expect(await countNamed(project.name as string)).toBe(2);
  });

  it('keeps no trace of a secret value: a retry of POST /secrets under the same key replays whatever its value, and another name is still refused', async () => {
    const client = ctx.api.withIdempotencyKey(unique('idem'));
    const name = unique('IDEM_SECRET').replace(/[^A-Za-z0-9_.-]/g, '_');
    const first = await client.post<Answer<'createSecret', 201>>('/api/v1/secrets', { name, value: 'sk-first-value' });
    expect(first.status).toBe(201);
    // The value is not part of what the key compares (the store holds nothing derived from it): the first answer comes back.
    const again = await client.post<Answer<'createSecret', 201>>('/api/v1/secrets', { name, value: 'sk-another-value' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectProblem(await client.post('/api/v1/secrets', { name: `${name}_2`, value: 'sk-first-value' }), 422, 'idempotency_key_reused');
  });
});
