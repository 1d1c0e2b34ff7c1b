import {
  ApiKeyListKey,
  ApiKeyScope,
  ApiKeyView,
  CreateApiKeyInput,
  DomainError,
  ErrorCode,
  NewKeyDigest,
  OrgContext,
  Page,
  PageRequest,
  rowsForPage,
  StoredApiKeyView,
  toPage,
} from '@cinetrace/contracts';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { newApiKeyRow, toApiKeyView, toStoredApiKeyView } from './api-key-rows';
import { ApiKey } from '../store/api-key.entity';
import { findLiveKey, insertApiKey, listLiveKeys, liveKeysOf, revokeKey } from '../store/api-keys.queries';
import { lockOrganization } from '../store/organizations.queries';
import { projectIdsAmong } from '../store/projects.queries';

/** An organization's API keys: create (the key shown once), list, revoke. */
@Injectable()
export class ApiKeysService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(ctx: OrgContext, input: CreateApiKeyInput, credential: NewKeyDigest): Promise<StoredApiKeyView> {
    if (input.projectIds) await this.checkProjects(ctx.orgId, input.projectIds);
    const row = newApiKeyRow({ orgId: ctx.orgId, name: input.name, scopes: input.scopes as ApiKeyScope[], projectIds: input.projectIds, credential });
    await insertApiKey(this.dataSource.manager, row);
    return toStoredApiKeyView(row);
  }

  async list(ctx: OrgContext, page: PageRequest<ApiKeyListKey>): Promise<Page<ApiKeyView, ApiKeyListKey>> {
    const rows = await listLiveKeys(this.dataSource.manager, ctx.orgId, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toApiKeyView), nextKey };
  }

  /**
   * Revokes a key of the caller's organization (the caller's own key too). The last key
   * able to manage keys (admin, every project) is kept: without it nobody could make
   * another. Revokes of one organization run one at a time, so two concurrent revokes
   * cannot each leave the other as the last admin key and both succeed.
   */
  async revoke(ctx: OrgContext, id: string): Promise<void> {
    await inTransaction(this.dataSource, async (manager) => {
      await lockOrganization(manager, ctx.orgId);
      const key = await findLiveKey(manager, ctx.orgId, id);
      if (!key) throw DomainError.notFound(`No API key with id '${id}'`);
      if (managesKeys(key)) {
        const live = await liveKeysOf(manager, ctx.orgId);
        if (live.filter(managesKeys).length <= 1) {
          throw new DomainError(ErrorCode.Conflict, 'This is the last admin key of the organization without a project restriction: create another before revoking it');
        }
      }
      await revokeKey(manager, key.id, Date.now());
    });
  }

  private async checkProjects(orgId: string, projectIds: string[]): Promise<void> {
    const known = await projectIdsAmong(this.dataSource.manager, orgId, projectIds);
    const errors = projectIds.flatMap((projectId, index) =>
      known.has(projectId) ? [] : [{ path: `projectIds[${index}]`, message: `'${projectId}' is not a project of this organization` }],
    );
    if (errors.length) throw DomainError.validation(errors);
  }
}

/** A key that may manage the organization's keys. */
const managesKeys = (key: ApiKey): boolean => key.scopes.includes('admin') && key.projectIds === null;
