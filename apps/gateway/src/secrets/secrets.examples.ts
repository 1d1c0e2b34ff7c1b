import type { CreateSecretInput, RotateSecretInput, SecretActivityView, SecretView } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import { listPage, type ExampleTable } from '../openapi/operation-examples';

const secret = {
  id: EXAMPLE.secretId,
  name: 'OPENAI_API_KEY',
  allowedHosts: ['api.openai.com'],
  createdAt: EXAMPLE.createdAt,
  updatedAt: EXAMPLE.createdAt,
} satisfies SecretView;

const activity = (id: string, action: 'created' | 'rotated', at: string) =>
  ({
    id,
    secretId: EXAMPLE.secretId,
    secretName: 'OPENAI_API_KEY',
    action,
    actor: { type: 'api_key', id: EXAMPLE.apiKeyId },
    allowedHosts: ['api.openai.com'],
    at,
  }) satisfies SecretActivityView;

export const SECRET_EXAMPLES: ExampleTable = {
  createSecret: {
    request: { name: 'OPENAI_API_KEY', value: 'sk-example-not-a-real-key', allowedHosts: ['api.openai.com'] } satisfies CreateSecretInput,
    response: secret,
  },
  listSecrets: { response: listPage([secret]) },
  rotateSecret: { request: { value: 'sk-example-rotated' } satisfies RotateSecretInput, response: { ...secret, updatedAt: EXAMPLE.updatedAt } },
  listSecretActivity: {
    response: listPage([activity('act_01jh8z6v9q3m2r7x5c4b1n0k8e', 'rotated', EXAMPLE.updatedAt), activity('act_01jh8z6v9q3m2r7x5c4b1n0k8d', 'created', EXAMPLE.createdAt)]),
  },
};
