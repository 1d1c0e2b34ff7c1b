import { aProject, aWrongApiKey } from '@cinetrace/testing';
import { expectProblem } from './support/expectations';
import { useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

describe('Authentication on /api/v1/projects', () => {
  const ctx = useStack();
  let projectId: string;

  beforeAll(async () => {
    const created = await ctx.api.post<Answer<'createProject', 201>>('/api/v1/projects', aProject());
    expect(created.status).toBe(201);
    projectId = created.body.id;
  });

  // Each row: what the client sent as Authorization (undefined: no header at all).
  const badCredentials: Array<[string, (key: string) => string | undefined]> = [
    ['no Authorization header', () => undefined],
    ['the right key under another scheme', (key) => `Token ${key}`],
    ['Basic credentials', () => `Basic ${Buffer.from('user:password').toString('base64')}`],
    ['the key without a scheme', (key) => key],
    ['a wrong key', () => `Bearer ${aWrongApiKey()}`],
    ['the right key with a character changed', (key) => `Bearer ${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`],
    ['Bearer with an empty key', () => 'Bearer '],
  ];

  it.each(badCredentials)('answers 401 unauthenticated to %s, on every projects route', async (_label, header) => {
    const value = header(ctx.stack.apiKey);
    const client = value === undefined ? ctx.api.withoutAuth() : ctx.api.withAuthorization(value);
    expectProblem(await client.get('/api/v1/projects'), 401, 'unauthenticated');
    expectProblem(await client.get(`/api/v1/projects/${projectId}`), 401, 'unauthenticated');
    expectProblem(await client.post('/api/v1/projects', aProject()), 401, 'unauthenticated');
  });

  it('reveals no project data in a 401', async () => {
    const response = await ctx.api.withAuthorization(`Bearer ${aWrongApiKey()}`).get(`/api/v1/projects/${projectId}`);
    expect(response.status).toBe(401);
    expect(response.text).not.toContain(projectId);
  });

  it('creates nothing for an unauthenticated POST', async () => {
    const project = aProject();
    expect((await ctx.api.withoutAuth().post('/api/v1/projects', project)).status).toBe(401);
    const listed = await ctx.api.get<Answer<'listProjects'>>('/api/v1/projects', { args: JSON.stringify({ name: project.name }) });
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([]);
  });

  it('accepts the Bearer scheme in any letter case (RFC 9110 schemes are case-insensitive)', async () => {
    const response = await ctx.api.withAuthorization(`bearer ${ctx.stack.apiKey}`).get('/api/v1/projects');
    expect(response.status).toBe(200);
  });

  it('accepts the right key', async () => {
    expect((await ctx.api.get('/api/v1/projects')).status).toBe(200);
  });
});
