import { AuthResolveReply, AuthResolveRequest, DomainError, ErrorCode } from '@cinetrace/contracts';
import { digestsEqual } from '@cinetrace/auth';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { ApiKey } from '../organizations/api-key.entity';
import { Project } from '../projects/project.entity';

/** Resolves the gateway's authenticated headers to an organization and, when asked, a project. */
@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>,
    @InjectRepository(Project) private readonly projects: Repository<Project>,
  ) {}

  async resolve(request: AuthResolveRequest): Promise<AuthResolveReply> {
    const key = await this.apiKeys.findOneBy({ keyHash: request.apiKeyHash, revokedAt: IsNull() });
    if (!key || !digestsEqual(key.keyHash, request.apiKeyHash)) {
      throw new DomainError(ErrorCode.Unauthenticated, 'The API key is missing, malformed or unknown');
    }
    const reply: AuthResolveReply = { orgId: key.orgId, apiKeyId: key.id };
    if (request.projectKey === undefined) return reply;
    const project = await this.projects.findOneBy({ orgId: key.orgId, key: request.projectKey });
    if (!project) throw new DomainError(ErrorCode.InvalidProjectKey, 'No project with this key in your organization');
    return { ...reply, project: { id: project.id, key: project.key } };
  }
}
