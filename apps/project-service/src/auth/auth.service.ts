import { AuthResolveReply, AuthResolveRequest, DomainError, ErrorCode } from '@cinetrace/contracts';
import { digestsEqual } from '@cinetrace/auth';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiKey } from '../store/api-key.entity';
import { findLiveKeyByHash, noteKeyUsed } from '../store/api-keys.queries';
import { ProjectServiceEnv } from '../project-service.env';
import { findProjectByKey } from '../store/projects.queries';

/**
 * `lastUsedAt` is written at most this often per key. A write per request would turn
 * every read into a write (and every gateway replica's cache refresh, every few seconds,
 * into one too); a minute is as precise as "when was this key last used" needs to be
 * when deciding whether a key can be revoked.
 */
export const LAST_USED_PRECISION_MS = 60_000;

/** Resolves the gateway's authenticated headers to an organization, the key's scopes and, when asked, a project. */
@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  private readonly instanceAdminIds: ReadonlySet<string>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ProjectServiceEnv) env: ProjectServiceEnv,
  ) {
    this.instanceAdminIds = new Set(env.INSTANCE_ADMIN_KEY_IDS);
  }

  async resolve(request: AuthResolveRequest): Promise<AuthResolveReply> {
    const key = await findLiveKeyByHash(this.dataSource.manager, request.apiKeyHash);
    if (!key || !digestsEqual(key.keyHash, request.apiKeyHash)) {
      throw new DomainError(ErrorCode.Unauthenticated, 'The API key is missing, malformed or unknown');
    }
    this.noteUse(key);
    const reply: AuthResolveReply = {
      orgId: key.orgId,
      apiKeyId: key.id,
      scopes: key.scopes,
      projectIds: key.projectIds,
      instanceAdmin: key.instanceAdmin || this.instanceAdminIds.has(key.id),
    };
    if (request.projectKey === undefined) return reply;
    const project = await findProjectByKey(this.dataSource.manager, key.orgId, request.projectKey);
    // A project the key is not restricted to reads as one it does not know (API.md).
    if (!project || (key.projectIds && !key.projectIds.includes(project.id))) {
      throw new DomainError(ErrorCode.InvalidProjectKey, 'No project with this key in your organization');
    }
    return { ...reply, project: { id: project.id, key: project.key } };
  }

  /**
   * Records the use without delaying the answer. The condition in the UPDATE makes
   * concurrent resolves (several gateway replicas) write once per period between them.
   */
  private noteUse(key: ApiKey): void {
    const now = Date.now();
    if (key.lastUsedAt !== null && now - key.lastUsedAt < LAST_USED_PRECISION_MS) return;
    noteKeyUsed(this.dataSource.manager, key.id, now, now - LAST_USED_PRECISION_MS).catch((err: unknown) =>
      this.logger.warn(`Could not record the use of API key ${key.id}: ${(err as Error).message}`),
    );
  }
}
