import { expect } from '@jest/globals';
import { Api, ApiResponse, unique } from '@cinetrace/testing';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ISO_MILLIS_UTC, expectProblem } from './support/expectations';
import { BENCHMARKS, allTasks, benchmarkOn, benchmarkPath, captionItems, runEnds, startOk, type BenchmarkView } from './support/benchmarks';
import { createDataset } from './support/datasets';
import { ModelEndpoints } from './support/model-endpoints';
import { addOrganization } from './support/organizations';
import { inNewProject } from './support/prompts';
import { useStack } from './support/stack-hooks';
import { Answer, Schema } from './support/api-types';
import { OpenApiDocument } from './support/openapi-document';

jest.setTimeout(120_000);

const SECRETS = '/api/v1/secrets';
const secretPath = (id: string) => `${SECRETS}/${encodeURIComponent(id)}`;
/** A value no answer, output or log line may ever show. */
const aValue = (tag: string) => `sk-${tag}-${randomBytes(12).toString('hex')}`;

/** An operator key offered by name (OUTBOUND_ENV_SECRETS), only for the endpoints' origin (http on the loopback literal). */
const OPERATOR_KEY = aValue('operator');
/** Given as a mounted secret would be: E2E_OPERATOR_KEY_FILE, the file ending in a newline. */
const operatorKeyDir = mkdtempSync(join(tmpdir(), 'cinetrace-operator-key-'));
const OPERATOR_KEY_FILE = join(operatorKeyDir, 'E2E_OPERATOR_KEY');
writeFileSync(OPERATOR_KEY_FILE, `${OPERATOR_KEY}\n`);
afterAll(() => rmSync(operatorKeyDir, { recursive: true, force: true }));
/** Set in the apps' environment but not offered: nothing may ever send it. */
const CANARY = aValue('canary');

async function createSecret(api: Api, body: Record<string, unknown>): Promise<Schema<'SecretView'>> {
  const created = await api.post<Schema<'SecretView'>>(SECRETS, body);
  if (created.status !== 201) throw new Error(`secret create answered ${created.status}: ${created.text}`);
  return created.body;
}

/** Every answer of the test, kept to check that none shows a value. */
function recorder() {
  const seen: ApiResponse[] = [];
  return {
    seen,
    keep: async <T>(response: Promise<ApiResponse<T>>): Promise<ApiResponse<T>> => {
      const answer = await response;
      seen.push(answer);
      return answer;
    },
    texts: () => seen.map((r) => r.text).join('\n'),
  };
}

/**
 * A target that repeats the credential it was sent as object keys, in its output and its
 * usage (where a key is all there is to hide it in). Answers `{ output, usage }`.
 */
async function keyEchoingTarget(): Promise<{ url: string; heard: string[]; close(): Promise<void> }> {
  const heard: string[] = [];
  const server: Server = createServer((req, res) => {
    const key = String(req.headers.authorization);
    heard.push(key);
    req.resume().on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ output: { caption: 'c', heard: { [key]: true }, nested: { [key]: { [key]: 1 } } }, usage: { [key]: 3, frames: 96 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/`, heard, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The task's trace, once trace-ingest has stored it. */
async function traceOf(api: Api, traceId: string): Promise<ApiResponse> {
  for (let i = 0; i < 100; i++) {
    const response = await api.get(`/api/v1/traces/${traceId}`);
    if (response.status === 200) return response;
    await sleep(100);
  }
  throw new Error(`trace ${traceId} was never readable`);
}

/** The answer of benchmark create for any unusable reference, whatever the reason. */
const UNUSABLE = /^is not a secret this benchmark can use for that URL/;

describe('Secrets', () => {
  // Started before the stack: the operator key is bound to the endpoints' origin, port included.
  const endpoints = new ModelEndpoints();
  beforeAll(() => endpoints.start());
  afterAll(() => endpoints.stop());
  const ctx = useStack(() => ({
    env: {
      OUTBOUND_ALLOW_PRIVATE: 'true',
      OUTBOUND_ENV_SECRETS: `E2E_OPERATOR_KEY@${endpoints.baseUrl}`,
      E2E_OPERATOR_KEY_FILE: OPERATOR_KEY_FILE,
      E2E_CANARY_SECRET: CANARY,
    },
  }));

  describe('no request may name a server environment variable', () => {
    it.each(['BOOTSTRAP_API_KEY', 'DATABASE_URL', 'PATH', 'E2E_CANARY_SECRET'])('refuses apiKeyEnv %s on targets and judges with 400, and calls nothing', async (name) => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const calls = endpoints.received.length;
      const target = await api.post(BENCHMARKS, {
        name: unique('Exfiltrate'),
        datasetId: dataset.id,
        target: { type: 'openai_chat', baseUrl: `${endpoints.baseUrl}/chat`, model: 'm', apiKeyEnv: name },
        scorers: [{ type: 'exact_match' }],
      });
      expectProblem(target, 400, 'validation_failed', ['target.apiKeyEnv']);
      expect(target.body.errors?.find((e) => e.path === 'target.apiKeyEnv')?.message).toMatch(/environment variable/);
      const judge = await api.post(BENCHMARKS, {
        name: unique('Exfiltrate'),
        datasetId: dataset.id,
        target: { type: 'dataset' },
        scorers: [{ type: 'llm_judge', config: { baseUrl: `${endpoints.baseUrl}/judge`, model: 'm', rubric: 'r', apiKeyEnv: name } }],
      });
      expectProblem(judge, 400, 'validation_failed', ['scorers[0].config.apiKeyEnv']);
      expect(endpoints.received.length).toBe(calls);
    });

    it('refuses credential headers written in clear on targets and http scorers, and a secret name nobody offers', async () => {
      const { api } = await inNewProject(ctx.api);
      const dataset = await createDataset(api);
      const response = await api.post(BENCHMARKS, {
        name: unique('Headers'),
        datasetId: dataset.id,
        target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, headers: { 'X-Api-Key': 'sk-in-clear' } },
        scorers: [{ type: 'http', config: { url: `${endpoints.baseUrl}/scorer`, headers: { Authorization: 'Bearer sk-in-clear', Cookie: 'session=1' } } }],
      });
      expectProblem(response, 400, 'validation_failed', ['target.headers.X-Api-Key', 'scorers[0].config.headers.Authorization', 'scorers[0].config.headers.Cookie']);

      // An environment variable the operator did not list is no secret, whatever it is called.
      const unlisted = await api.post(BENCHMARKS, {
        name: unique('Unlisted'),
        datasetId: dataset.id,
        target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, apiKey: { secret: 'E2E_CANARY_SECRET' } },
        scorers: [{ type: 'exact_match' }],
      });
      expectProblem(unlisted, 400, 'validation_failed', ['target.apiKey']);
      expect(unlisted.body.errors?.[0].message).toMatch(UNUSABLE);
    });
  });

  describe('the resource', () => {
    it('creates, lists and rotates a secret, never answering its value, and audits each change', async () => {
      const answers = recorder();
      const api = ctx.api;
      const value = aValue('crud');
      const name = unique('MODEL_KEY').replace(/[^A-Za-z0-9_.-]/g, '_');
      const created = await answers.keep(api.post<Answer<'createSecret', 201>>(SECRETS, { name, value, allowedHosts: ['API.Example.com', '*.models.example.com'] }));
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^sec_/),
        name,
        allowedHosts: ['api.example.com', '*.models.example.com'],
        createdAt: expect.stringMatching(ISO_MILLIS_UTC),
        updatedAt: expect.stringMatching(ISO_MILLIS_UTC),
      });
      expect(created.headers.get('location')).toBe(secretPath(created.body.id));
      const id = created.body.id;

      expectProblem(await answers.keep(api.post(SECRETS, { name, value: 'other' })), 409, 'conflict');
      expectProblem(await answers.keep(api.post(SECRETS, { name: 'has space', value })), 400, 'validation_failed', ['name']);
      expectProblem(await answers.keep(api.post(SECRETS, { name: unique('E'), value: '' })), 400, 'validation_failed', ['value']);
      expectProblem(await answers.keep(api.post(SECRETS, { name: unique('E'), value: 'x'.repeat(16 * 1024 + 1) })), 400, 'validation_failed', ['value']);
      expectProblem(await answers.keep(api.post(SECRETS, { name: unique('E'), value, allowedHosts: ['https://x.example.com/'] })), 400, 'validation_failed');

      const listed = await answers.keep(api.get<Answer<'listSecrets'>>(SECRETS, { name }));
      expect(listed.status).toBe(200);
      expect(listed.body).toEqual({ data: [created.body], nextCursor: null });

      await sleep(5);
      const rotatedValue = aValue('rotated');
      const rotated = await answers.keep(api.request<Answer<'rotateSecret'>>('PUT', secretPath(id), { json: { value: rotatedValue } }));
      expect(rotated.status).toBe(200);
      expect(rotated.body).toMatchObject({ id, name, allowedHosts: created.body.allowedHosts, createdAt: created.body.createdAt });
      expect(Date.parse(rotated.body.updatedAt)).toBeGreaterThan(Date.parse(created.body.updatedAt));
      expectProblem(await answers.keep(api.request('PUT', secretPath('sec_nothing'), { json: { value } })), 404, 'not_found');
      // No route shows one secret: GET by id is 405, naming what the path answers.
      const byId = await answers.keep(api.get(secretPath(id)));
      expectProblem(byId, 405, 'method_not_allowed');
      expect(byId.headers.get('allow')).toMatch(/PUT.*DELETE|DELETE.*PUT/);

      const activity = await answers.keep(api.get<Answer<'listSecretActivity'>>(`${secretPath(id)}/activity`));
      expect(activity.status).toBe(200);
      expect(activity.body.data.map((a) => a.action)).toEqual(['rotated', 'created']);
      for (const row of activity.body.data) {
        expect(row).toEqual({
          id: expect.stringMatching(/^act_/),
          secretId: id,
          secretName: name,
          action: expect.any(String),
          actor: { type: 'api_key', id: expect.stringMatching(/^key_/) },
          allowedHosts: created.body.allowedHosts,
          at: expect.stringMatching(ISO_MILLIS_UTC),
        });
      }

      const deleted = await answers.keep(api.request('DELETE', secretPath(id)));
      expect(deleted.status).toBe(204);
      expectProblem(await answers.keep(api.request('DELETE', secretPath(id))), 404, 'not_found');
      expect((await answers.keep(api.get<Answer<'listSecretActivity'>>(`${secretPath(id)}/activity`))).body.data.map((a) => a.action)).toEqual(['deleted', 'rotated', 'created']);

      expect(answers.texts()).not.toContain(value);
      expect(answers.texts()).not.toContain(rotatedValue);
      expect(ctx.stack.output()).not.toContain(value);
      expect(ctx.stack.output()).not.toContain(rotatedValue);
    });

    it('is in the OpenAPI document', async () => {
      const doc = (await ctx.api.get<OpenApiDocument>('/api/v1/openapi.json')).body;
      expect(Object.keys(doc.paths[SECRETS])).toEqual(expect.arrayContaining(['get', 'post']));
      expect(Object.keys(doc.paths[`${SECRETS}/{id}`])).toEqual(expect.arrayContaining(['put', 'delete']));
      expect(doc.paths[`${SECRETS}/{id}/activity`].get).toBeDefined();
      const { CreateSecretInput, RotateSecretInput, SecretView } = doc.components.schemas;
      expect(Object.keys(CreateSecretInput.properties).sort()).toEqual(['allowedHosts', 'name', 'value']);
      expect(CreateSecretInput.properties.value.writeOnly).toBe(true);
      expect(Object.keys(RotateSecretInput.properties).sort()).toEqual(['allowedHosts', 'value']);
      expect(Object.keys(SecretView.properties).sort()).toEqual(['allowedHosts', 'createdAt', 'id', 'name', 'updatedAt']);
    });
  });

  describe('in benchmarks', () => {
    it('sends the value as a bearer token for the allowed host only, picks up a rotation at the next task, and shows it nowhere', async () => {
      const answers = recorder();
      const { api } = await inNewProject(ctx.api);
      const first = aValue('target');
      const second = aValue('target-rotated');
      const scorerValue = aValue('scorer');
      const targetSecret = await createSecret(api, { name: unique('TARGET_KEY').replace(/[^A-Za-z0-9_.-]/g, '_'), value: first, allowedHosts: [endpoints.baseUrl] });
      const scorerSecret = await createSecret(api, { name: unique('SCORER_KEY').replace(/[^A-Za-z0-9_.-]/g, '_'), value: `Bearer ${scorerValue}` });
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/echo`, apiKey: { secret: targetSecret.name } },
        scorers: [
          { name: 'remote', type: 'http', config: { url: `${endpoints.baseUrl}/scorer`, headers: { Authorization: { secret: scorerSecret.name } } } },
          { name: 'judge', type: 'llm_judge', config: { baseUrl: `${endpoints.baseUrl}/judge`, model: 'j', rubric: 'r', apiKey: { secret: targetSecret.name } } },
        ],
      });
      const benchmark = await answers.keep(api.get<BenchmarkView>(benchmarkPath(benchmarkId)));
      expect(benchmark.body.target.apiKey).toEqual({ secret: targetSecret.name });
      expect(benchmark.body.scorers[0].config.headers).toEqual({ Authorization: { secret: scorerSecret.name } });

      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.status).toBe('completed');
      expect(endpoints.sentTo('/target/echo').at(-1)!.headers.authorization).toBe(`Bearer ${first}`);
      expect(endpoints.sentTo('/scorer').at(-1)!.headers.authorization).toBe(`Bearer ${scorerValue}`);
      expect(endpoints.sentTo('/judge/chat/completions').at(-1)!.headers.authorization).toBe(`Bearer ${first}`);
      const [task] = await allTasks(api, benchmarkId, run.id);
      // The endpoint echoed the key: the stored output shows it redacted.
      expect((task.output as { heard: unknown }).heard).toBe('Bearer [redacted]');
      answers.seen.push(await traceOf(api, task.traceId!));

      const rotated = await api.request('PUT', secretPath(targetSecret.id), { json: { value: second } });
      expect(rotated.status).toBe(200);
      const next = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(next.status).toBe('completed');
      expect(endpoints.sentTo('/target/echo').at(-1)!.headers.authorization).toBe(`Bearer ${second}`);
      const [nextTask] = await allTasks(api, benchmarkId, next.id);
      answers.seen.push(await traceOf(api, nextTask.traceId!));
      await answers.keep(api.get(`${benchmarkPath(benchmarkId)}/tasks`, { runId: next.id }));
      await answers.keep(api.get(`${benchmarkPath(benchmarkId)}/tasks`, { runId: run.id }));
      await answers.keep(api.get(BENCHMARKS));

      for (const secret of [first, second, scorerValue]) {
        expect(answers.texts()).not.toContain(secret);
        expect(ctx.stack.output()).not.toContain(secret);
      }
    });

    it('refuses at create a host a secret does not allow, with the answer a missing secret gets, and at call time sends nothing to a host no longer allowed', async () => {
      const { api } = await inNewProject(ctx.api);
      const value = aValue('bound');
      const secret = await createSecret(api, { name: unique('BOUND').replace(/[^A-Za-z0-9_.-]/g, '_'), value, allowedHosts: ['models.example.com'] });
      const dataset = await createDataset(api);
      const createWith = (name: string) =>
        api.post(BENCHMARKS, {
          name: unique('Elsewhere'),
          datasetId: dataset.id,
          target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, apiKey: { secret: name } },
          scorers: [{ type: 'exact_match' }],
        });
      const refused = await createWith(secret.name);
      expectProblem(refused, 400, 'validation_failed', ['target.apiKey']);
      // A write key learns neither that the name exists nor where it may go.
      const missing = await createWith(unique('NO_SUCH').replace(/[^A-Za-z0-9_.-]/g, '_'));
      expectProblem(missing, 400, 'validation_failed', ['target.apiKey']);
      expect(refused.body.errors).toEqual(missing.body.errors);
      expect(refused.body.errors?.[0].message).toMatch(UNUSABLE);
      expect(refused.text).not.toContain('models.example.com');

      // Allowed when created; the allow-list then changes under the benchmark.
      await api.request('PUT', secretPath(secret.id), { json: { value, allowedHosts: [endpoints.localhostUrl] } });
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), {
        target: { type: 'http', url: `${endpoints.localhostUrl}/target/caption`, apiKey: { secret: secret.name } },
        runner: { maxAttempts: 1 },
      });
      await api.request('PUT', secretPath(secret.id), { json: { value, allowedHosts: ['models.example.com'] } });
      const calls = endpoints.received.length;
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.status).toBe('failed');
      const [task] = await allTasks(api, benchmarkId, run.id);
      expect(task.error).toContain(`the secret '${secret.name}' could not be used: The secret '${secret.name}' may not be sent to ${endpoints.localhostUrl}`);
      expect(task.error).not.toContain('models.example.com');
      expect(endpoints.received.length).toBe(calls);
    });

    it('reads a bare allowed host as https on 443: sends nothing over plain http or to another port', async () => {
      const { api } = await inNewProject(ctx.api);
      const value = aValue('https-only');
      const { port } = new URL(endpoints.baseUrl);
      const name = unique('HTTPS_ONLY').replace(/[^A-Za-z0-9_.-]/g, '_');
      // Bound to https on the endpoints' port: their plain http is refused at create.
      const secret = await createSecret(api, { name, value, allowedHosts: [`127.0.0.1:${port}`] });
      const dataset = await createDataset(api);
      const plain = await api.post(BENCHMARKS, {
        name: unique('Plain'),
        datasetId: dataset.id,
        target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, apiKey: { secret: name } },
        scorers: [{ type: 'exact_match' }],
      });
      expectProblem(plain, 400, 'validation_failed', ['target.apiKey']);
      expect(plain.body.errors?.[0].message).toMatch(UNUSABLE);

      /** A benchmark created while the secret allowed `url`'s origin, run after it is bound to the bare host. */
      const refusedAtCallTime = async (url: string): Promise<string | null | undefined> => {
        await api.request('PUT', secretPath(secret.id), { json: { value, allowedHosts: [new URL(url).origin] } });
        const { benchmarkId } = await benchmarkOn(api, captionItems(1), { target: { type: 'http', url, apiKey: { secret: name } }, runner: { maxAttempts: 1 } });
        expect((await api.request('PUT', secretPath(secret.id), { json: { value, allowedHosts: ['127.0.0.1'] } })).status).toBe(200);
        const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
        expect(run.status).toBe('failed');
        return (await allTasks(api, benchmarkId, run.id))[0].error;
      };
      const calls = endpoints.received.length;
      expect(await refusedAtCallTime(`${endpoints.baseUrl}/target/caption`)).toContain(
        `the secret '${name}' could not be used: The secret '${name}' may not be sent to http://127.0.0.1:${port}`,
      );
      // Nothing listens there: a released value would have failed the call to connect, not the release.
      expect(await refusedAtCallTime('https://127.0.0.1:8443/target/caption')).toContain(
        `the secret '${name}' could not be used: The secret '${name}' may not be sent to https://127.0.0.1:8443`,
      );
      expect(endpoints.received.length).toBe(calls);
      expect(ctx.stack.output()).not.toContain(value);
    });

    it('cuts a value out of the keys of what a target answers, in the task output, its usage and the trace', async () => {
      const answers = recorder();
      const { api } = await inNewProject(ctx.api);
      const value = aValue('as-key');
      const secret = await createSecret(api, { name: unique('KEYED').replace(/[^A-Za-z0-9_.-]/g, '_'), value });
      const target = await keyEchoingTarget();
      try {
        const { benchmarkId } = await benchmarkOn(api, captionItems(1), { target: { type: 'http', url: target.url, apiKey: { secret: secret.name } } });
        const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
        expect(run.status).toBe('completed');
        expect(target.heard).toEqual([`Bearer ${value}`]);
        const tasks = await answers.keep(api.get<Answer<'listBenchmarkTasks'>>(`${benchmarkPath(benchmarkId)}/tasks`, { runId: run.id }));
        const [task] = tasks.body.data;
        expect(task.output).toEqual({ caption: 'c', heard: { 'Bearer [redacted]': true }, nested: { 'Bearer [redacted]': { 'Bearer [redacted]': 1 } } });
        expect(task.usage).toEqual({ 'Bearer [redacted]': 3, frames: 96 });
        const trace = await traceOf(api, task.traceId!);
        answers.seen.push(trace);
        expect(trace.text).toContain('Bearer [redacted]');
        expect(answers.texts()).not.toContain(value);
        expect(ctx.stack.output()).not.toContain(value);
      } finally {
        await target.close();
      }
    });

    // project-service decides from what benchmark-service told it, by the time a benchmark's create or delete is answered.
    it('cannot delete a secret while a live benchmark names it, from the moment the benchmark is created until the last one naming it is deleted', async () => {
      const { api } = await inNewProject(ctx.api);
      const secret = await createSecret(api, { name: unique('IN_USE').replace(/[^A-Za-z0-9_.-]/g, '_'), value: aValue('in-use') });
      const naming = { target: { type: 'openai_chat', baseUrl: `${endpoints.baseUrl}/chat`, model: 'm', apiKey: { secret: secret.name } } };
      const { benchmarkId } = await benchmarkOn(api, [], naming);
      const refused = await api.request('DELETE', secretPath(secret.id));
      expectProblem(refused, 409, 'conflict');
      expect(refused.body.detail).toContain(benchmarkId);

      // Another project of the organization names it too: deleting one benchmark leaves the other's reference.
      const other = await inNewProject(ctx.api);
      const { benchmarkId: otherBenchmarkId } = await benchmarkOn(other.api, [], naming);
      expect((await api.request('DELETE', benchmarkPath(benchmarkId))).status).toBe(200);
      const stillNamed = await api.request('DELETE', secretPath(secret.id));
      expectProblem(stillNamed, 409, 'conflict');
      expect([stillNamed.body.detail.includes(otherBenchmarkId), stillNamed.body.detail.includes(benchmarkId)]).toEqual([true, false]);

      expect((await other.api.request('DELETE', benchmarkPath(otherBenchmarkId))).status).toBe(200);
      expect((await api.request('DELETE', secretPath(secret.id))).status).toBe(204);
    });

    it('resolves an operator key offered by name, only for its hosts', async () => {
      const { api } = await inNewProject(ctx.api);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), {
        target: { type: 'http', url: `${endpoints.baseUrl}/target/caption`, apiKey: { secret: 'E2E_OPERATOR_KEY' } },
      });
      const run = await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      expect(run.status).toBe('completed');
      expect(endpoints.sentTo('/target/caption').at(-1)!.headers.authorization).toBe(`Bearer ${OPERATOR_KEY}`);
      const dataset = await createDataset(api);
      const elsewhere = await api.post(BENCHMARKS, {
        name: unique('Operator elsewhere'),
        datasetId: dataset.id,
        target: { type: 'http', url: `${endpoints.localhostUrl}/target/caption`, apiKey: { secret: 'E2E_OPERATOR_KEY' } },
        scorers: [{ type: 'exact_match' }],
      });
      expectProblem(elsewhere, 400, 'validation_failed', ['target.apiKey']);
      expect(ctx.stack.output()).not.toContain(OPERATOR_KEY);
    });
  });

  describe('another organization', () => {
    it('can neither see, change, delete nor use the secret', async () => {
      const value = aValue('ours');
      const ours = await createSecret(ctx.api, { name: unique('OURS').replace(/[^A-Za-z0-9_.-]/g, '_'), value });
      const other = await addOrganization(ctx.stack);

      const listed = await other.api.get<Answer<'listSecrets'>>(SECRETS);
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((s) => s.id)).not.toContain(ours.id);
      expectProblem(await other.api.request('PUT', secretPath(ours.id), { json: { value: 'stolen' } }), 404, 'not_found');
      expectProblem(await other.api.request('DELETE', secretPath(ours.id)), 404, 'not_found');
      expectProblem(await other.api.get(`${secretPath(ours.id)}/activity`), 404, 'not_found');

      const { api } = await inNewProject(other.api);
      const dataset = await createDataset(api);
      const calls = endpoints.received.length;
      const borrowed = await api.post(BENCHMARKS, {
        name: unique('Borrow'),
        datasetId: dataset.id,
        target: { type: 'http', url: `${endpoints.baseUrl}/target/echo`, apiKey: { secret: ours.name } },
        scorers: [{ type: 'exact_match' }],
      });
      expectProblem(borrowed, 400, 'validation_failed', ['target.apiKey']);
      // The same name is free in their organization; a secret of theirs by that name sends their value, never ours.
      expect((await other.api.post(SECRETS, { name: ours.name, value: aValue('theirs') })).status).toBe(201);
      const { benchmarkId } = await benchmarkOn(api, captionItems(1), { target: { type: 'http', url: `${endpoints.baseUrl}/target/echo`, apiKey: { secret: ours.name } } });
      await runEnds(api, benchmarkId, await startOk(api, benchmarkId));
      const sent = endpoints.received.slice(calls).map((r) => r.headers.authorization);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toContain(value);
      expect((await ctx.api.get<Answer<'listSecrets'>>(SECRETS, { name: ours.name })).body.data).toEqual([ours]);
    });
  });
});
