import { Api, Stack, unique } from '@cinetrace/testing';
import { Schema } from './api-types';

/**
 * A second organization with an admin key of its own, made as an operator would (the
 * stack's bootstrap key is the instance admin): what a tenant next door holds.
 */
export async function addOrganization(stack: Stack): Promise<{ orgId: string; api: Api }> {
  const created = await stack.api().post<Schema<'CreatedOrganizationView'>>('/api/v1/organizations', { name: unique('Another organization') });
  if (created.status !== 201) throw new Error(`organization create answered ${created.status}: ${created.text}`);
  return { orgId: created.body.id, api: new Api(stack.baseUrl).withAuthorization(`Bearer ${created.body.apiKey.key}`) };
}
