import { CreateOrganizationInput, NewKeyDigest, StoredOrganizationView } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction, toIso } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newApiKeyRow, toStoredApiKeyView } from './api-key-rows';
import { insertApiKey } from '../store/api-keys.queries';
import { Organization } from '../store/organization.entity';
import { insertOrganization } from '../store/organizations.queries';

export const FIRST_KEY_NAME = 'Admin key';

/** Further organizations, made by an instance admin (the gateway checks), each with its first admin key. */
@Injectable()
export class OrganizationsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(input: CreateOrganizationInput, credential: NewKeyDigest): Promise<StoredOrganizationView> {
    const id = newId('org');
    // The slug only marks the bootstrap organization (`default`); others take their id.
    const organization: Organization = { id, slug: id, name: input.name, createdAt: Date.now() };
    const row = newApiKeyRow({ orgId: id, name: FIRST_KEY_NAME, scopes: ['admin'], credential });
    await inTransaction(this.dataSource, async (manager) => {
      await insertOrganization(manager, organization);
      await insertApiKey(manager, row);
    });
    return { id, name: organization.name, createdAt: toIso(organization.createdAt), apiKey: toStoredApiKeyView(row) };
  }
}
