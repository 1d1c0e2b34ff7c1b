import type { CreatedOrganizationView, CreateOrganizationInput } from '@cinetrace/contracts';
import { EXAMPLE } from '../openapi/example-ids';
import type { ExampleTable } from '../openapi/operation-examples';

export const ORGANIZATION_EXAMPLES: ExampleTable = {
  createOrganization: {
    request: { name: 'Studio B' } satisfies CreateOrganizationInput,
    response: {
      id: EXAMPLE.orgId,
      name: 'Studio B',
      createdAt: EXAMPLE.createdAt,
      apiKey: {
        id: EXAMPLE.apiKeyId,
        name: 'Admin key',
        scopes: ['admin'],
        projectIds: null,
        prefix: 'ct_PHh9',
        createdAt: EXAMPLE.createdAt,
        key: 'ct_PHh9ruff_wlI0JH1kcz56g2ORyVqDMQnPCrsAp7q0qA',
      },
    } satisfies CreatedOrganizationView,
  },
};
