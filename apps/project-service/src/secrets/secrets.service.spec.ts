import { expect } from '@jest/globals';
import { DomainError, ErrorCode, type OrgContext, type SecretResolveRequest, sealedSecretContext, secretIntakeContext } from '@cinetrace/contracts';
import { openServiceDataSource } from '@cinetrace/persistence';
import { AtRestCipher, ReplyKeyPair, sealFor } from '@cinetrace/secret-crypto';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { projectServiceMigrations } from '../migrations';
import { ApiKey } from '../store/api-key.entity';
import { Organization } from '../store/organization.entity';
import { Project } from '../store/project.entity';
import { EnvSecrets } from './env-secrets';
import { SecretActivity } from '../store/secret-activity.entity';
import { SecretIntake } from './secret-cipher';
import { SecretReleaseService } from './secret-release.service';
import { Secret } from '../store/secret.entity';
import { SecretsService } from './secrets.service';

/** project-service's secrets on a real SQLite store, with benchmark-service faked on the bus. */
describe('SecretsService and SecretReleaseService', () => {
  let dir: string;
  let store: DataSource;
  let secrets: SecretsService;
  let release: SecretReleaseService;
  const key = randomBytes(32);
  const intake = new SecretIntake(key);
  const referencedBy: string[] = [];
  const ours: OrgContext = { orgId: 'org_ours', apiKeyId: 'key_ours', requestId: 'r1' };
  const theirs: OrgContext = { orgId: 'org_theirs', apiKeyId: 'key_theirs', requestId: 'r2' };

  const sealedForIntake = (orgId: string, value: string) => sealFor(intake.publicKey, value, secretIntakeContext(orgId));
  const services = (cipherKey: Buffer, env: EnvSecrets) => {
    const bus = { request: async () => ({ benchmarkIds: [...referencedBy] }) };
    return {
      secrets: new SecretsService(store, new AtRestCipher(cipherKey), new SecretIntake(cipherKey), bus as never),
      release: new SecretReleaseService(store, new AtRestCipher(cipherKey), env),
    };
  };
  /** What the worker does: a one-use key, then opening the sealed answer. */
  async function resolve(service: SecretReleaseService, request: Omit<SecretResolveRequest, 'replyKey'>): Promise<string> {
    const keys = new ReplyKeyPair();
    const reply = await service.resolve({ ...request, replyKey: keys.publicKey });
    return keys.open(reply.sealed, sealedSecretContext(request));
  }

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cinetrace-secrets-'));
    store = await openServiceDataSource(
      {
        target: { kind: 'sqlite', file: path.join(dir, 'project-service.sqlite') },
        entities: [Organization, ApiKey, Project, Secret, SecretActivity],
        migrations: projectServiceMigrations,
      },
      1,
    );
    for (const [orgId, projectId] of [
      ['org_ours', 'prj_ours'],
      ['org_theirs', 'prj_theirs'],
    ]) {
      await store.getRepository(Organization).insert({ id: orgId, slug: orgId, name: orgId, createdAt: 1 });
      await store.getRepository(Project).insert({ id: projectId, orgId, name: 'p', description: '', key: 'p', createdAt: 1, updatedAt: 1 });
    }
    ({ secrets, release } = services(key, new EnvSecrets('OPERATOR_KEY@api.operator.example', { OPERATOR_KEY: 'sk-operator', PATH: '/usr/bin' })));
  });
  afterAll(async () => {
    await store.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores only ciphertext, and releases the value to a project of the organization for an allowed host', async () => {
    const value = 'sk-live-stored-0123456789';
    const created = await secrets.create(ours, { name: 'MODEL', allowedHosts: ['api.example.com'], sealedValue: sealedForIntake(ours.orgId, value) });
    const rows = await store.query<Record<string, unknown>[]>('SELECT * FROM secrets');
    expect(JSON.stringify(rows)).not.toContain(value);
    expect(rows[0]).toMatchObject({ key_id: new AtRestCipher(key).keyId, org_id: 'org_ours', name: 'MODEL' });
    expect(created).toEqual({ id: expect.stringMatching(/^sec_/), name: 'MODEL', allowedHosts: ['api.example.com'], createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(await resolve(release, { projectId: 'prj_ours', name: 'MODEL', host: 'api.example.com' })).toBe(value);
  });

  it('refuses another organization, another host, and a name it does not hold', async () => {
    const refusal = (request: Omit<SecretResolveRequest, 'replyKey'>) => resolve(release, request).catch((e: DomainError) => e);
    expect(await refusal({ projectId: 'prj_theirs', name: 'MODEL', host: 'api.example.com' })).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal({ projectId: 'prj_ours', name: 'MODEL', host: 'evil.example.com' })).toMatchObject({
      code: ErrorCode.Conflict,
      detail: expect.stringContaining('may not be sent to evil.example.com'),
    });
    expect(await refusal({ projectId: 'prj_ours', name: 'PATH', host: 'api.example.com' })).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal({ projectId: 'prj_nobody', name: 'MODEL', host: 'api.example.com' })).toMatchObject({ code: ErrorCode.NotFound });
    await expect(release.resolve({ projectId: 'prj_ours', name: 'MODEL', host: 'api.example.com', replyKey: 'not-a-key' })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
    });
  });

  it('offers listed operator keys, only for their hosts, when the organization has no secret of the name', async () => {
    expect(await resolve(release, { projectId: 'prj_theirs', name: 'OPERATOR_KEY', host: 'api.operator.example' })).toBe('sk-operator');
    await expect(resolve(release, { projectId: 'prj_theirs', name: 'OPERATOR_KEY', host: 'evil.example.com' })).rejects.toMatchObject({ code: ErrorCode.Conflict });
    expect(
      await release.checkUses(theirs, [
        { path: 'target.apiKey', name: 'OPERATOR_KEY', host: 'api.operator.example' },
        { path: 'scorers[0].config.apiKey', name: 'MODEL', host: 'api.example.com' },
        { path: 'scorers[1].config.apiKey', name: 'OPERATOR_KEY', host: 'evil.example.com' },
      ]),
    ).toEqual({
      errors: [
        { path: 'scorers[0].config.apiKey', message: "names no secret of this organization ('MODEL')" },
        { path: 'scorers[1].config.apiKey', message: expect.stringContaining('may not be sent to evil.example.com') },
      ],
    });
  });

  it('cannot read values stored under another SECRETS_KEY, and names the key rather than failing silently', async () => {
    const other = services(randomBytes(32), new EnvSecrets(undefined, {}));
    await expect(resolve(other.release, { projectId: 'prj_ours', name: 'MODEL', host: 'api.example.com' })).rejects.toMatchObject({
      code: ErrorCode.Conflict,
      detail: expect.stringMatching(/^The secret 'MODEL' cannot be read with the current SECRETS_KEY \(it was stored with key k1-[0-9a-f]{12}\): rotate it$/),
    });
    // A value sealed for the old intake key is refused as such: the gateway asks for the new key.
    await expect(other.secrets.create(ours, { name: 'X', sealedValue: sealedForIntake(ours.orgId, 'v') })).rejects.toMatchObject({ code: ErrorCode.PreconditionFailed });
    // Sealed for another organization: the same refusal, nothing stored.
    await expect(secrets.create(ours, { name: 'Y', sealedValue: sealedForIntake(theirs.orgId, 'v') })).rejects.toMatchObject({ code: ErrorCode.PreconditionFailed });
  });

  it('rotates, refuses a delete while referenced, deletes, and audits each change without a value', async () => {
    const [secret] = (await secrets.list(ours, { name: 'MODEL' }, { limit: 10 })).items;
    await secrets.rotate(ours, secret.id, { sealedValue: sealedForIntake(ours.orgId, 'sk-rotated-value-42') });
    expect(await resolve(release, { projectId: 'prj_ours', name: 'MODEL', host: 'api.example.com' })).toBe('sk-rotated-value-42');
    await expect(secrets.rotate(theirs, secret.id, { sealedValue: sealedForIntake(theirs.orgId, 'stolen') })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    referencedBy.push('bm_1');
    await expect(secrets.delete(ours, secret.id)).rejects.toMatchObject({ code: ErrorCode.Conflict, detail: expect.stringContaining('bm_1') });
    referencedBy.length = 0;
    await expect(secrets.delete(theirs, secret.id)).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await secrets.delete(ours, secret.id);
    const activity = (await secrets.activity(ours, secret.id, { limit: 10 })).items;
    expect(activity.map((a) => [a.action, a.actor.id])).toEqual([
      ['deleted', 'key_ours'],
      ['rotated', 'key_ours'],
      ['created', 'key_ours'],
    ]);
    await expect(secrets.activity(theirs, secret.id, { limit: 10 })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    expect(JSON.stringify(await store.query('SELECT * FROM secret_activity'))).not.toMatch(/sk-/);
  });
});
