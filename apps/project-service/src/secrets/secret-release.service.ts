import {
  DomainError,
  ErrorCode,
  OrgContext,
  originAllowed,
  SECRET_NAME_PATTERN,
  SecretResolveReply,
  SecretResolveRequest,
  SecretUse,
  SecretUsesCheckReply,
  sealedSecretContext,
} from '@cinetrace/contracts';
import { AtRestCipher, isReplyPublicKey, sealFor } from '@cinetrace/secret-crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { findProjectById } from '../store/projects.queries';
import { ProjectServiceEnv } from '../project-service.env';
import { EnvSecrets } from './env-secrets';
import { atRestContext } from './secret-cipher';
import { Secret } from '../store/secret.entity';
import { findSecretByName } from '../store/secrets.queries';

/** A secret as far as releasing it goes: the organization's own, else one the operator lists (OUTBOUND_ENV_SECRETS). */
type Usable = { kind: 'stored'; secret: Secret } | { kind: 'env'; name: string; allowedHosts: string[] };

/**
 * The only way a secret's value leaves project-service: to the process making an outbound
 * call, for a project of the secret's organization and a host the secret allows, sealed to
 * the requester's one-use key. Also says, at benchmark create, whether references are usable.
 */
@Injectable()
export class SecretReleaseService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Secrets');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AtRestCipher) private readonly cipher: AtRestCipher,
    @Inject(EnvSecrets) private readonly envSecrets: EnvSecrets,
    @Inject(ProjectServiceEnv) private readonly env: ProjectServiceEnv,
  ) {}

  onApplicationBootstrap(): void {
    const unbound = this.envSecrets.unbound();
    // Names only, never values: the operator should know what any tenant could send anywhere.
    if (unbound.length) this.logger.warn(`OUTBOUND_ENV_SECRETS offers ${unbound.join(', ')} for any host: bind each to its provider (NAME@host)`);
  }

  /**
   * One answer for every unusable reference, whatever the reason (no such secret, another
   * organization's, not allowed for that URL): a write key must not learn the organization's
   * secret names or allowed hosts from it.
   */
  async checkUses(ctx: OrgContext, uses: SecretUse[]): Promise<SecretUsesCheckReply> {
    const errors: SecretUsesCheckReply['errors'] = [];
    // A benchmark may name one secret in many places: each is looked up once.
    const found = new Map<string, Promise<Usable | undefined>>();
    for (const use of uses) {
      if (!found.has(use.name)) found.set(use.name, this.find(ctx.orgId, String(use.name)));
      const usable = await found.get(use.name);
      if (!usable || !this.allows(usable, use.origin)) errors.push({ path: use.path, message: UNUSABLE_REFERENCE });
    }
    return { errors };
  }

  async resolve(request: SecretResolveRequest): Promise<SecretResolveReply> {
    const { projectId, name, origin, replyKey } = request ?? ({} as SecretResolveRequest);
    if (typeof projectId !== 'string' || typeof name !== 'string' || !SECRET_NAME_PATTERN.test(name) || typeof origin !== 'string' || !origin || !isReplyPublicKey(replyKey)) {
      throw DomainError.validation([{ path: 'request', message: 'needs projectId, a secret name, an origin and an X25519 reply key' }]);
    }
    const project = await findProjectById(this.dataSource.manager, projectId);
    if (!project) throw DomainError.notFound(`No project '${projectId}'`);
    const usable = await this.find(project.orgId, name);
    if (!usable) throw DomainError.notFound(`No secret named '${name}' in the benchmark's organization`);
    // Names the destination, never the secret's allowedHosts: task errors are read with read keys.
    if (!this.allows(usable, origin)) throw new DomainError(ErrorCode.Conflict, `The secret '${name}' may not be sent to ${origin}`);
    const value = usable.kind === 'stored' ? this.decrypted(usable.secret) : this.envSecrets.value(usable.name);
    if (value === undefined) throw DomainError.notFound(`The secret '${name}' is offered by the operator but not set`);
    return { sealed: sealFor(replyKey, value, sealedSecretContext({ projectId, name, origin })) };
  }

  /** allowedHosts bind scheme and port: a bare host is https on 443; plain http only under OUTBOUND_ALLOW_PRIVATE. */
  private allows(usable: Usable, origin: string): boolean {
    const hosts = usable.kind === 'stored' ? usable.secret.allowedHosts : usable.allowedHosts;
    return originAllowed(origin, hosts, { allowPlainHttp: this.env.OUTBOUND_ALLOW_PRIVATE });
  }

  private decrypted(secret: Secret): string {
    try {
      return this.cipher.decrypt(secret, atRestContext(secret));
    } catch {
      // The key changed (or the row was altered): say so, rather than an internal error; the error holds no part of the value.
      throw new DomainError(ErrorCode.Conflict, `The secret '${secret.name}' cannot be read with the current SECRETS_KEY (it was stored with key ${secret.keyId}): rotate it`);
    }
  }

  private async find(orgId: string, name: string): Promise<Usable | undefined> {
    const secret = await findSecretByName(this.dataSource.manager, orgId, name);
    if (secret) return { kind: 'stored', secret };
    const listed = this.envSecrets.find(name);
    return listed ? { kind: 'env', ...listed } : undefined;
  }
}

/** The same for a missing secret and a refused destination (see checkUses). */
export const UNUSABLE_REFERENCE = 'is not a secret this benchmark can use for that URL (no such secret in the organization, or it may not be sent there)';
