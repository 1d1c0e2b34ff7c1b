import { aProject, aTestApiKey, aWrongApiKey, api } from '@cinetrace/testing';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_HOOK_TIMEOUT_MS, useStack } from './support/stack-hooks';
import { Answer } from './support/api-types';

const PROJECTS = '/api/v1/projects';
const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('Bootstrap API key', () => {
  describe('first start on an empty store without BOOTSTRAP_API_KEY', () => {
    const ctx = useStack({ apiKey: null });
    const keyFile = () => join(ctx.stack.dataDir, 'bootstrap-api-key');
    const fileKey = () => readFileSync(keyFile(), 'utf8').trim();

    it('writes the generated key to <DATA_DIR>/bootstrap-api-key, readable by the owner only', () => {
      expect(fileKey()).toMatch(/^\S{20,}$/);
      expect(statSync(keyFile()).mode & 0o777).toBe(0o600);
    });

    it('prints the key once in its output', () => {
      expect(occurrences(ctx.stack.output(), fileKey())).toBe(1);
    });

    it('accepts the key', async () => {
      const client = api(ctx.stack.baseUrl, fileKey());
      expect((await client.get(PROJECTS)).status).toBe(200);
      expect((await client.post(PROJECTS, aProject())).status).toBe(201);
    });

    it(
      'keeps the key and the data across a restart, and prints no new key',
      async () => {
        const key = fileKey();
        const client = api(ctx.stack.baseUrl, key);
        const created = await client.post<Answer<'createProject', 201>>(PROJECTS, aProject());
        expect(created.status).toBe(201);

        await ctx.stack.restart();

        expect(fileKey()).toBe(key);
        expect((await client.get<Answer<'getProject'>>(`${PROJECTS}/${created.body.id}`)).body).toEqual(created.body);
        expect(ctx.stack.output()).not.toContain(key);
        // No new key was printed: nothing key-like in the new output authenticates.
        const tokens = [...new Set(ctx.stack.output().match(/[A-Za-z0-9_-]{20,}/g) ?? [])].slice(0, 50);
        for (const token of tokens) {
          const works = (await api(ctx.stack.baseUrl, token).get(PROJECTS)).status === 200;
          expect({ token, works }).toEqual({ token, works: false });
        }
      },
      STACK_HOOK_TIMEOUT_MS,
    );

    it(
      'adds BOOTSTRAP_API_KEY to the same organization when set on a later start',
      async () => {
        const generated = api(ctx.stack.baseUrl, fileKey());
        const created = await generated.post<Answer<'createProject', 201>>(PROJECTS, aProject());
        const provided = aTestApiKey();

        await ctx.stack.restart({ env: { BOOTSTRAP_API_KEY: provided } });

        const viaProvided = await api(ctx.stack.baseUrl, provided).get<Answer<'getProject'>>(`${PROJECTS}/${created.body.id}`);
        expect(viaProvided.status).toBe(200);
        expect(viaProvided.body).toEqual(created.body);
        expect((await generated.get(PROJECTS)).status).toBe(200);
      },
      STACK_HOOK_TIMEOUT_MS,
    );
  });

  describe('start with BOOTSTRAP_API_KEY', () => {
    const provided = aTestApiKey();
    const ctx = useStack({ apiKey: provided });

    it('accepts that key and no other', async () => {
      expect((await api(ctx.stack.baseUrl, provided).get(PROJECTS)).status).toBe(200);
      expect((await api(ctx.stack.baseUrl, aWrongApiKey()).get(PROJECTS)).status).toBe(401);
    });

    it('does not print the provided key (it is a secret)', () => {
      expect(ctx.stack.output()).not.toContain(provided);
    });
  });
});
