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
import { insertRows, inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull, Repository } from 'typeorm';
import { Project } from '../store/project.entity';
import { newApiKeyRow, toApiKeyView, toStoredApiKeyView } from './api-key-rows';
import { ApiKey } from '../store/api-key.entity';

/** An organization's API keys: create (the key shown once), list, revoke. */
@Injectable()
export class ApiKeysService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
  ) {}

  async create(ctx: OrgContext, input: CreateApiKeyInput, credential: NewKeyDigest): Promise<StoredApiKeyView> {
    if (input.projectIds) await this.checkProjects(ctx.orgId, input.projectIds);
    const row = newApiKeyRow({ orgId: ctx.orgId, name: input.name, scopes: input.scopes as ApiKeyScope[], projectIds: input.projectIds, credential });
    await insertRows(this.apiKeys.manager, ApiKey, row);
    return toStoredApiKeyView(row);
  }

  async list(ctx: OrgContext, page: PageRequest<ApiKeyListKey>): Promise<Page<ApiKeyView, ApiKeyListKey>> {
    const query = this.apiKeys
      .createQueryBuilder('k')
      .where('k.org_id = :orgId', { orgId: ctx.orgId })
      .andWhere('k.revoked_at IS NULL')
      .orderBy('k.id', 'DESC')
      .limit(rowsForPage(page));
    if (page.after !== undefined) query.andWhere('k.id < :after', { after: page.after });
    const { items, nextKey } = toPage(await query.getMany(), page.limit, (row) => row.id);
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
      const key = await manager.findOneBy(ApiKey, { id, orgId: ctx.orgId, revokedAt: IsNull() });
      if (!key) throw DomainError.notFound(`No API key with id '${id}'`);
      if (managesKeys(key)) {
        const live = await manager.findBy(ApiKey, { orgId: ctx.orgId, revokedAt: IsNull() });
        if (live.filter(managesKeys).length <= 1) {
          throw new DomainError(ErrorCode.Conflict, 'This is the last admin key of the organization without a project restriction: create another before revoking it');
        }
      }
      await manager.update(ApiKey, { id: key.id }, { revokedAt: Date.now() });
    });
  }

  private async checkProjects(orgId: string, projectIds: string[]): Promise<void> {
    const found = await this.projects.find({ select: { id: true }, where: { orgId, id: In(projectIds) } });
    const known = new Set(found.map((p) => p.id));
    const errors = projectIds.flatMap((projectId, index) =>
      known.has(projectId) ? [] : [{ path: `projectIds[${index}]`, message: `'${projectId}' is not a project of this organization` }],
    );
    if (errors.length) throw DomainError.validation(errors);
  }
}

/** A key that may manage the organization's keys. */
const managesKeys = (key: ApiKey): boolean => key.scopes.includes('admin') && key.projectIds === null;

/** Serialises writers of one organization: a row lock on PostgreSQL; SQLite's transactions already run one at a time. */
async function lockOrganization(manager: EntityManager, orgId: string): Promise<void> {
  if (manager.connection.options.type === 'postgres') {
    await manager.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [orgId]);
  }
}
