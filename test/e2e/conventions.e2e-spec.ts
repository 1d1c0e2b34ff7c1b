import { expect } from '@jest/globals';
import { aProject, aProjectBodyOfSize, unique } from '@cinetrace/testing';
import { expectProblem, expectValidationFailure } from './support/expectations';
import { useStack } from './support/stack-hooks';
import { Answer, Problem } from './support/api-types';

const PROJECTS = '/api/v1/projects';

describe('Conventions', () => {
  const ctx = useStack();
  const countNamed = async (name: string) => (await ctx.api.get<Answer<'listProjects'>>(PROJECTS, { args: JSON.stringify({ name }) })).body.data.length;

  describe('X-Request-Id', () => {
    it('echoes the client’s id on success and on errors', async () => {
      const id = `req-${unique('e2e')}`;
      const ok = await ctx.api.get(PROJECTS, undefined, { headers: { 'X-Request-Id': id } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-request-id')).toBe(id);

      const failed = await ctx.api.withoutAuth().get(PROJECTS, undefined, { headers: { 'X-Request-Id': id } });
      expectProblem(failed, 401, 'unauthenticated');
      expect(failed.body.requestId).toBe(id);
    });

    it('generates a distinct id when the client sends none, also on errors', async () => {
      const responses = [await ctx.api.get(PROJECTS), await ctx.api.get(PROJECTS), await ctx.api.get(`${PROJECTS}/does-not-exist`), await ctx.api.post(PROJECTS, { name: '' })];
      const generated = responses.map((r) => r.headers.get('x-request-id'));
      for (const id of generated) expect(id).toEqual(expect.stringMatching(/\S/));
      expect(new Set(generated).size).toBe(generated.length);
      expect((responses[2].body as Problem).requestId).toBe(generated[2]);
    });
  });

  describe('JSON bodies', () => {
    it.each([
      ['cut short', '{"name":'],
      ['single-quoted', "{'name':'x'}"],
      ['with a trailing comma', '{"name":"x",}'],
    ])('answers 400 invalid_json to a body %s', async (_label, raw) => {
      expectProblem(await ctx.api.post(PROJECTS, undefined, { raw, contentType: 'application/json' }), 400, 'invalid_json');
    });

    it.each([
      ['an array', '[]'],
      ['a string', '"x"'],
      ['a number', '5'],
    ])('answers 400 validation_failed to valid JSON that is %s, not an object', async (_label, raw) => {
      expectValidationFailure(await ctx.api.post(PROJECTS, undefined, { raw, contentType: 'application/json' }));
    });

    it.each(['text/plain', 'application/x-www-form-urlencoded'])('answers 415 unsupported_media_type to a %s body, and creates nothing', async (contentType) => {
      const project = aProject();
      const response = await ctx.api.post(PROJECTS, undefined, { raw: JSON.stringify(project), contentType });
      expectProblem(response, 415, 'unsupported_media_type');
      expect(await countNamed(project.name as string)).toBe(0);
    });

    it('accepts application/json with a charset parameter', async () => {
      const response = await ctx.api.post(PROJECTS, aProject(), { contentType: 'application/json; charset=utf-8' });
      expect(response.status).toBe(201);
    });

    it('keeps UTF-8 text intact both ways', async () => {
      const name = `Café – 映像 – 🎬 ${unique('u')}`;
      const created = await ctx.api.post<Answer<'createProject', 201>>(PROJECTS, { name, description: 'Ünïcödé' });
      expect(created.status).toBe(201);
      expect(created.body.name).toBe(name);
      expect((await ctx.api.get<Answer<'getProject'>>(`${PROJECTS}/${created.body.id}`)).body.name).toBe(name);
    });

    it('answers 413 payload_too_large to a body over the default 5 MiB', async () => {
      const raw = aProjectBodyOfSize(5 * 1024 * 1024 + 1024);
      const response = await ctx.api.post(PROJECTS, undefined, { raw, contentType: 'application/json' });
      expectProblem(response, 413, 'payload_too_large');
    });
  });

  it('answers an unknown route with a 404 problem', async () => {
    expectProblem(await ctx.api.get('/api/v1/no-such-route'), 404, 'not_found');
  });
});
