import { hashApiKey } from '@cinetrace/auth';
import type { BusClient } from '@cinetrace/bus';
import type { ApiKeyCreateRequest, OrgContext, StoredApiKeyView } from '@cinetrace/contracts';
import type { FastifyReply } from 'fastify';
import type { ListResponder } from '../lists/list-responder';
import { OrganizationsController } from '../organizations/organizations.controller';
import { ApiKeysController } from './api-keys.controller';

const ctx: OrgContext = { orgId: 'org_1', apiKeyId: 'key_0', requestId: 'r' };
const stored: StoredApiKeyView = { id: 'key_1', name: 'k', scopes: ['read'], projectIds: null, prefix: 'ct_abcd', createdAt: '2026-01-01T00:00:00.000Z' };

/** A bus that records what is sent and answers as project-service would (never with the key). */
function recordingBus() {
  const sent: ApiKeyCreateRequest[] = [];
  const bus = {
    request: async (_pattern: string, message: ApiKeyCreateRequest) => {
      sent.push(message);
      return { ...stored, prefix: message.credential.preview.replace(/…$/, ''), id: 'org_1', name: 'n', createdAt: stored.createdAt, apiKey: stored };
    },
  };
  return { bus: bus as unknown as BusClient, sent };
}

const reply = { header: () => reply } as unknown as FastifyReply;

describe('new keys never cross the bus', () => {
  it('POST /api-keys sends the hash and prefix only, and answers the key', async () => {
    const { bus, sent } = recordingBus();
    const controller = new ApiKeysController(bus, {} as ListResponder);
    const answer = await controller.create(ctx, { name: 'k', scopes: ['read'] }, reply);
    expect(answer.key).toMatch(/^ct_/);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent)).not.toContain(answer.key);
    expect(sent[0].credential.keyHash).toBe(hashApiKey(answer.key));
  });

  it('POST /organizations sends the first key as its hash only, and answers the key', async () => {
    const { bus, sent } = recordingBus();
    const answer = await new OrganizationsController(bus).create(ctx, { name: 'n' }, reply);
    expect(answer.apiKey.key).toMatch(/^ct_/);
    expect(JSON.stringify(sent)).not.toContain(answer.apiKey.key);
    expect(sent[0].credential.keyHash).toBe(hashApiKey(answer.apiKey.key));
  });
});
