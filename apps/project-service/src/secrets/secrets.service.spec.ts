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
import { ProjectServiceEnv } from '../project-service.env';
import { EnvSecrets } from './env-secrets';
import { SecretActivity } from '../store/secret-activity.entity';
import { SecretIntake } from './secret-cipher';
import { SecretReleaseService, UNUSABLE_REFERENCE } from './secret-release.service';
import { Secret } from '../store/secret.entity';
import { SecretReferencesService } from './secret-references.service';
import { SecretsService } from './secrets.service';

/** project-service's secrets on a real SQLite store; which benchmarks name a secret is told as benchmark-service tells it. */
describe('SecretsService and SecretReleaseService', () => {
  let dir: string;
  let store: DataSource;
  let secrets: SecretsService;
  let release: SecretReleaseService;
  const key = randomBytes(32);
  const intake = new SecretIntake(key);
  let references: SecretReferencesService;
  const ours: OrgContext = { orgId: 'org_ours', apiKeyId: 'key_ours', requestId: 'r1' };
  const theirs: OrgContext = { orgId: 'org_theirs', apiKeyId: 'key_theirs', requestId: 'r2' };

  const sealedForIntake = (orgId: string, value: string) => sealFor(intake.publicKey, value, secretIntakeContext(orgId));
  const services = (cipherKey: Buffer, env: EnvSecrets, allowPlainHttp = false) => {
    return {
      secrets: new SecretsService(store, new AtRestCipher(cipherKey), new SecretIntake(cipherKey)),
      release: new SecretReleaseService(store, new AtRestCipher(cipherKey), env, { OUTBOUND_ALLOW_PRIVATE: allowPlainHttp } as ProjectServiceEnv),
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
    references = new SecretReferencesService(store);
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
    expect(await resolve(release, { projectId: 'prj_ours', name: 'MODEL', origin: 'https://api.example.com:443' })).toBe(value);
  });

  it('refuses another organization, another host, and a name it does not hold', async () => {
    const refusal = (request: Omit<SecretResolveRequest, 'replyKey'>) => resolve(release, request).catch((e: DomainError) => e);
    expect(await refusal({ projectId: 'prj_theirs', name: 'MODEL', origin: 'https://api.example.com:443' })).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal({ projectId: 'prj_ours', name: 'MODEL', origin: 'https://evil.example.com:443' })).toMatchObject({
      code: ErrorCode.Conflict,
      detail: expect.stringContaining('may not be sent to https://evil.example.com:443'),
    });
    expect(await refusal({ projectId: 'prj_ours', name: 'PATH', origin: 'https://api.example.com:443' })).toMatchObject({ code: ErrorCode.NotFound });
    expect(await refusal({ projectId: 'prj_nobody', name: 'MODEL', origin: 'https://api.example.com:443' })).toMatchObject({ code: ErrorCode.NotFound });
    await expect(release.resolve({ projectId: 'prj_ours', name: 'MODEL', origin: 'https://api.example.com:443', replyKey: 'not-a-key' })).rejects.toMatchObject({
      code: ErrorCode.ValidationFailed,
    });
  });

  it('binds a bare allowed host to https on 443, and plain http to an http:// entry under OUTBOUND_ALLOW_PRIVATE only', async () => {
    const refusal = (service: SecretReleaseService, origin: string) => resolve(service, { projectId: 'prj_ours', name: 'MODEL', origin }).catch((e: DomainError) => e);
    for (const origin of ['http://api.example.com:80', 'https://api.example.com:8443', 'http://api.example.com:443']) {
      expect(await refusal(release, origin)).toMatchObject({ code: ErrorCode.Conflict, detail: `The secret 'MODEL' may not be sent to ${origin}` });
    }
    await secrets.create(ours, { name: 'LOCAL', allowedHosts: ['http://localhost:8080'], sealedValue: sealedForIntake(ours.orgId, 'sk-local') });
    const dev = services(key, new EnvSecrets(undefined, {}), true).release;
    expect(await resolve(dev, { projectId: 'prj_ours', name: 'LOCAL', origin: 'http://localhost:8080' })).toBe('sk-local');
    expect(await resolve(release, { projectId: 'prj_ours', name: 'LOCAL', origin: 'http://localhost:8080' }).catch((e: DomainError) => e)).toMatchObject({
      code: ErrorCode.Conflict,
    });
    expect(await resolve(dev, { projectId: 'prj_ours', name: 'LOCAL', origin: 'http://localhost:8081' }).catch((e: DomainError) => e)).toMatchObject({ code: ErrorCode.Conflict });
    expect(await release.checkUses(ours, [{ path: 'target.apiKey', name: 'MODEL', origin: 'http://api.example.com:80' }])).toEqual({
      errors: [{ path: 'target.apiKey', message: UNUSABLE_REFERENCE }],
    });
  });

  it('offers listed operator keys, only for their hosts, when the organization has no secret of the name', async () => {
    expect(await resolve(release, { projectId: 'prj_theirs', name: 'OPERATOR_KEY', origin: 'https://api.operator.example:443' })).toBe('sk-operator');
    await expect(resolve(release, { projectId: 'prj_theirs', name: 'OPERATOR_KEY', origin: 'https://evil.example.com:443' })).rejects.toMatchObject({ code: ErrorCode.Conflict });
    expect(
      await release.checkUses(theirs, [
        { path: 'target.apiKey', name: 'OPERATOR_KEY', origin: 'https://api.operator.example:443' },
        { path: 'scorers[0].config.apiKey', name: 'MODEL', origin: 'https://api.example.com:443' },
        { path: 'scorers[1].config.apiKey', name: 'OPERATOR_KEY', origin: 'https://evil.example.com:443' },
      ]),
    ).toEqual({
      errors: [
        // One answer whatever the reason: a write key learns neither names nor allowed hosts.
        { path: 'scorers[0].config.apiKey', message: UNUSABLE_REFERENCE },
        { path: 'scorers[1].config.apiKey', message: UNUSABLE_REFERENCE },
      ],
    });
  });

  it('cannot read values stored under another SECRETS_KEY, and names the key rather than failing silently', async () => {
    const other = services(randomBytes(32), new EnvSecrets(undefined, {}));
    await expect(resolve(other.release, { projectId: 'prj_ours', name: 'MODEL', origin: 'https://api.example.com:443' })).rejects.toMatchObject({
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
    expect(await resolve(release, { projectId: 'prj_ours', name: 'MODEL', origin: 'https://api.example.com:443' })).toBe('sk-rotated-value-42');
    await expect(secrets.rotate(theirs, secret.id, { sealedValue: sealedForIntake(theirs.orgId, 'stolen') })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    await references.record({ benchmarks: [{ benchmarkId: 'bm_1', orgId: ours.orgId, names: ['MODEL'], deleted: false }] });
    await expect(secrets.delete(ours, secret.id)).rejects.toMatchObject({ code: ErrorCode.Conflict, detail: expect.stringContaining('bm_1') });
    await references.record({ benchmarks: [{ benchmarkId: 'bm_1', orgId: ours.orgId, names: ['MODEL'], deleted: true }] });
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
