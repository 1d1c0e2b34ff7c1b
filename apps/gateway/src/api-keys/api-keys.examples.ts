import type { ApiKeyView, CreateApiKeyInput, CreatedApiKeyView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const created = {
  id: EXAMPLE.apiKeyId,
  name: 'CI ingest',
  scopes: ['ingest'],
  projectIds: [EXAMPLE.projectId],
  prefix: 'ct_YtU1',
  createdAt: EXAMPLE.createdAt,
  key: 'ct_YtU1e5YGZHgDxICBBh_MxPFr5AELENczOVo68lc9vc',
} satisfies CreatedApiKeyView;

const { key: _shownOnce, ...listed } = created;

export const API_KEY_EXAMPLES: ExampleTable = {
  createApiKey: { request: { name: 'CI ingest', scopes: ['ingest'], projectIds: [EXAMPLE.projectId] } satisfies CreateApiKeyInput, response: created },
  listApiKeys: { response: listPage([{ ...listed, lastUsedAt: EXAMPLE.updatedAt } satisfies ApiKeyView]) },
};
