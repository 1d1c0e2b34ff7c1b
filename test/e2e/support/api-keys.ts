import { Api, ApiResponse, aProject, unique } from '@cinetrace/testing';
import { ListPage, Schema } from './api-types';

export const API_KEYS = '/api/v1/api-keys';
export const ORGANIZATIONS = '/api/v1/organizations';

/** A valid API key create body with a unique name; fields can be overridden or added. */
export function anApiKey(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: unique('Key'), scopes: ['read'], ...overrides };
}

/** Creates an API key and fails loudly when that does not answer 201; the body holds `key`. */
export async function createApiKey(admin: Api, overrides: Record<string, unknown> = {}): Promise<Schema<'CreatedApiKeyView'>> {
  const response = await admin.post<Schema<'CreatedApiKeyView'>>(API_KEYS, anApiKey(overrides));
  if (response.status !== 201) throw new Error(`API key create answered ${response.status}: ${response.text}`);
  return response.body;
}

export const revokeApiKey = (admin: Api, id: string): Promise<ApiResponse> => admin.request('DELETE', `${API_KEYS}/${id}`);

/** Creates a project and fails loudly when that does not answer 201. */
export async function createProject(api: Api): Promise<Schema<'ProjectView'>> {
  const response = await api.post<Schema<'ProjectView'>>('/api/v1/projects', aProject());
  if (response.status !== 201) throw new Error(`project create answered ${response.status}: ${response.text}`);
  return response.body;
}

/** Every key of the organization, paging through the whole list. */
export async function allApiKeys(admin: Api): Promise<Schema<'ApiKeyView'>[]> {
  const keys: Schema<'ApiKeyView'>[] = [];
  let cursor: string | undefined;
  do {
    const page = await admin.get<ListPage<Schema<'ApiKeyView'>>>(API_KEYS, { limit: 200, cursor });
    if (page.status !== 200) throw new Error(`API key list answered ${page.status}: ${page.text}`);
    keys.push(...page.body.data);
    cursor = page.body.nextCursor ?? undefined;
  } while (cursor);
  return keys;
}
