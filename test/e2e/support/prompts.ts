import { Api, ApiResponse, aProject, unique } from '@cinetrace/testing';
import { Answer, Schema } from './api-types';

export const PROMPTS = '/api/v1/prompts';

/** Creates a fresh project and returns a client scoped to it (X-Project-Key), with its id. */
export async function inNewProject(api: Api): Promise<{ api: Api; projectId: string; key: string }> {
  const created = await api.post<Schema<'ProjectView'>>('/api/v1/projects', aProject());
  if (created.status !== 201) throw new Error(`project create answered ${created.status}: ${created.text}`);
  return { api: api.withProjectKey(created.body.key), projectId: created.body.id, key: created.body.key };
}

/** A valid prompt create body with a unique name; fields can be overridden or added. */
export function aPrompt(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: unique('Shot'),
    content: 'A slow dolly shot of {{subject}} at {{time_of_day}}',
    type: 'text-to-video',
    ...overrides,
  };
}

/** Creates a prompt and fails loudly when that does not answer 201. */
export async function createPrompt(api: Api, overrides: Record<string, unknown> = {}): Promise<Schema<'PromptView'>> {
  const response = await api.post<Schema<'PromptView'>>(PROMPTS, aPrompt(overrides));
  if (response.status !== 201) throw new Error(`prompt create answered ${response.status}: ${response.text}`);
  return response.body;
}

/** PUT /api/v1/prompts/{id}; `T` is what the caller expects back (the updated prompt unless it says otherwise). */
export const put = <T = Answer<'updatePrompt'>>(api: Api, id: string, json: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
  api.request<T>('PUT', `${PROMPTS}/${id}`, { json, headers });

/** DELETE /api/v1/prompts/{id}; `T` as for put. */
export const del = <T = Answer<'deletePrompt'>>(api: Api, id: string, headers: Record<string, string> = {}): Promise<ApiResponse<T>> =>
  api.request<T>('DELETE', `${PROMPTS}/${id}`, { headers });

export const releasePath = (id: string, name: string): string => `${PROMPTS}/${id}/releases/${name}`;

/** PUT …/releases/{name}. */
export const moveRelease = (api: Api, id: string, name: string, body: unknown): Promise<ApiResponse> => api.request('PUT', releasePath(id, name), { json: body });

/**
 * A gated move once prompt-service knows of run `runId`: benchmark-service tells it of a run a
 * moment after the run completes, so the move is tried again while it is refused without naming
 * the run (a refused move changes nothing), for at most 10 s.
 */
export async function moveOnceRunIsTold(api: Api, id: string, name: string, body: unknown, runId: string): Promise<ApiResponse> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const answer = await moveRelease(api, id, name, body);
    const detail = String((answer.body as { detail?: unknown } | undefined)?.detail ?? '');
    if (answer.status !== 409 || detail.includes(runId) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A client with a new key of the organization holding only `scopes`, for the project `projectKey`. */
export async function keyWithScopes(admin: Api, projectKey: string, scopes: string[]): Promise<Api> {
  const created = await admin.post<Schema<'CreatedApiKeyView'>>('/api/v1/api-keys', { name: unique('Key'), scopes });
  if (created.status !== 201) throw new Error(`API key create answered ${created.status}: ${created.text}`);
  return admin.withAuthorization(`Bearer ${created.body.key}`).withProjectKey(projectKey);
}
