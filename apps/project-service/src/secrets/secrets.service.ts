import {
  DomainError,
  ErrorCode,
  OrgContext,
  Page,
  PageRequest,
  rowsForPage,
  SealedCreateSecretInput,
  SealedRotateSecretInput,
  SecretAction,
  SecretActivityView,
  SecretListKey,
  SecretView,
  toPage,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { AtRestCipher } from '@cinetrace/secret-crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SecretActivity } from '../store/secret-activity.entity';
import { insertSecretActivity, listSecretActivity } from '../store/secret-activity.queries';
import { atRestContext, SecretIntake } from './secret-cipher';
import { Secret } from '../store/secret.entity';
import { benchmarksNamingSecret } from '../store/secret-references.queries';
import { deleteSecret, findSecret, insertSecret, listSecrets, updateSecretValue } from '../store/secrets.queries';

/** The organization's secrets: written encrypted, shown without their values, every change audited. */
@Injectable()
export class SecretsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AtRestCipher) private readonly cipher: AtRestCipher,
    @Inject(SecretIntake) private readonly intake: SecretIntake,
  ) {}

  /** The value arrives sealed to the intake key: it is opened here and encrypted at rest at once. */
  async create(ctx: OrgContext, input: SealedCreateSecretInput): Promise<SecretView> {
    const value = this.intake.open(ctx.orgId, input.sealedValue);
    const now = Date.now();
    const id = newId('sec');
    const allowedHosts = normalHosts(input.allowedHosts);
    const secret: Secret = { id, orgId: ctx.orgId, name: input.name, allowedHosts, createdAt: now, updatedAt: now, ...this.sealed(ctx.orgId, id, input.name, value) };
    try {
      await inTransaction(this.dataSource, async (tx) => {
        await insertSecret(tx, secret);
        await audit(tx, ctx, secret, 'created', now);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new DomainError(ErrorCode.Conflict, `A secret named '${input.name}' already exists in this organization`);
      throw err;
    }
    return toView(secret);
  }

  async list(ctx: OrgContext, filters: { name?: string }, page: PageRequest<SecretListKey>): Promise<Page<SecretView, SecretListKey>> {
    const rows = await listSecrets(this.dataSource.manager, ctx.orgId, { name: filters.name }, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toView), nextKey };
  }

  /** A new value (and, when sent, new allowed hosts): the next task that asks for it gets the new one. */
  async rotate(ctx: OrgContext, id: string, input: SealedRotateSecretInput): Promise<SecretView> {
    const value = this.intake.open(ctx.orgId, input.sealedValue);
    const now = Date.now();
    return inTransaction(this.dataSource, async (tx) => {
      const secret = await findOwn(tx, ctx, id);
      const updated: Secret = {
        ...secret,
        ...this.sealed(secret.orgId, secret.id, secret.name, value),
        allowedHosts: input.allowedHosts === undefined ? secret.allowedHosts : normalHosts(input.allowedHosts),
        updatedAt: now,
      };
      await updateSecretValue(tx, secret.id, {
        keyId: updated.keyId,
        iv: updated.iv,
        tag: updated.tag,
        ciphertext: updated.ciphertext,
        allowedHosts: updated.allowedHosts,
        updatedAt: now,
      });
      await audit(tx, ctx, updated, 'rotated', now);
      return toView(updated);
    });
  }

  /**
   * Refused while a live benchmark of the organization names it, as benchmark-service told
   * (secret_references): a benchmark created a moment ago may not be told yet.
   */
  async delete(ctx: OrgContext, id: string): Promise<void> {
    const secret = await findOwn(this.dataSource.manager, ctx, id);
    const benchmarkIds = await benchmarksNamingSecret(this.dataSource.manager, ctx.orgId, secret.name, 5);
    if (benchmarkIds.length) {
      throw new DomainError(
        ErrorCode.Conflict,
        `The secret '${secret.name}' is referenced by benchmark${benchmarkIds.length > 1 ? 's' : ''} ${benchmarkIds.join(', ')}: delete or change them first`,
      );
    }
    await inTransaction(this.dataSource, async (tx) => {
      if (!(await deleteSecret(tx, ctx.orgId, secret.id))) throw DomainError.notFound(`No secret with id '${id}'`);
      await audit(tx, ctx, secret, 'deleted', Date.now());
    });
  }

  intakeKey(): { publicKey: string } {
    return { publicKey: this.intake.publicKey };
  }

  /** Newest first; readable after the secret is deleted (the trail outlives it). */
  async activity(ctx: OrgContext, id: string, page: PageRequest<string>): Promise<Page<SecretActivityView, string>> {
    const rows = await listSecretActivity(this.dataSource.manager, ctx.orgId, id, page.after, rowsForPage(page));
    if (rows.length === 0 && page.after === undefined) throw DomainError.notFound(`No secret with id '${id}'`);
    const { items, nextKey } = toPage(rows, page.limit, (row) => row.id);
    return { items: items.map(toActivityView), nextKey };
  }

  private sealed(orgId: string, id: string, name: string, value: string): Pick<Secret, 'keyId' | 'iv' | 'tag' | 'ciphertext'> {
    return this.cipher.encrypt(value, atRestContext({ orgId, id, name }));
  }
}

async function findOwn(manager: EntityManager, ctx: OrgContext, id: string): Promise<Secret> {
  // Another organization's secret is as absent as one that never existed.
  const secret = await findSecret(manager, ctx.orgId, id);
  if (!secret) throw DomainError.notFound(`No secret with id '${id}'`);
  return secret;
}

async function audit(tx: EntityManager, ctx: OrgContext, secret: Secret, action: SecretAction, at: number): Promise<void> {
  await insertSecretActivity(tx, {
    id: newId('act'),
    orgId: ctx.orgId,
    secretId: secret.id,
    secretName: secret.name,
    action,
    apiKeyId: ctx.apiKeyId,
    allowedHosts: secret.allowedHosts,
    at,
  });
}

function normalHosts(hosts: string[] | undefined): string[] {
  return [...new Set((hosts ?? []).map((h) => h.toLowerCase()))];
}

function toView(s: Secret): SecretView {
  return { id: s.id, name: s.name, allowedHosts: s.allowedHosts, createdAt: toIso(s.createdAt), updatedAt: toIso(s.updatedAt) };
}

function toActivityView(a: SecretActivity): SecretActivityView {
  return {
    id: a.id,
    secretId: a.secretId,
    secretName: a.secretName,
    action: a.action,
    actor: { type: 'api_key', id: a.apiKeyId },
    allowedHosts: a.allowedHosts,
    at: toIso(a.at),
  };
}
