import { Api, ApiResponse, aProject, unique } from '@cinetrace/testing';

export const PROMPTS = '/api/v1/prompts';

/** Creates a fresh project and returns a client scoped to it (X-Project-Key), with its id. */
export async function inNewProject(api: Api): Promise<{ api: Api; projectId: string; key: string }> {
  const created = await api.post('/api/v1/projects', aProject());
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
export async function createPrompt(api: Api, overrides: Record<string, unknown> = {}): Promise<any> {
  const response = await api.post(PROMPTS, aPrompt(overrides));
  if (response.status !== 201) throw new Error(`prompt create answered ${response.status}: ${response.text}`);
  return response.body;
}

export const put = (api: Api, id: string, json: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> => api.request('PUT', `${PROMPTS}/${id}`, { json, headers });

export const del = (api: Api, id: string, headers: Record<string, string> = {}): Promise<ApiResponse> => api.request('DELETE', `${PROMPTS}/${id}`, { headers });
