import { generateApiKey, hashApiKey } from '@cinetrace/auth';
import { newId } from '@cinetrace/ids';
import { isUniqueViolation } from '@cinetrace/persistence';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import fs from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { ProjectServiceEnv } from '../project-service.env';
import { digestOf, newApiKeyRow } from './api-key-rows';
import { findKeyByHash, insertApiKey, unrevokeKey } from '../store/api-keys.queries';
import { Organization } from '../store/organization.entity';
import { findOrganizationBySlug, insertOrganization } from '../store/organizations.queries';

const BOOTSTRAP_SLUG = 'default';
export const BOOTSTRAP_KEY_FILE = 'bootstrap-api-key';

/**
 * First start on an empty store: one organization and one API key, the key printed
 * once and written to `<DATA_DIR>/bootstrap-api-key` (0600). With BOOTSTRAP_API_KEY
 * set, that key is made to exist at every start instead (live again if it was revoked).
 * The bootstrap key is `admin` and the instance admin.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(ProjectServiceEnv) private readonly env: ProjectServiceEnv,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { organization, created } = await this.bootstrapOrganization();
    if (this.env.BOOTSTRAP_API_KEY) {
      await this.ensureKey(organization.id, this.env.BOOTSTRAP_API_KEY, 'Bootstrap key (BOOTSTRAP_API_KEY)');
    } else if (created) {
      const key = generateApiKey();
      await this.ensureKey(organization.id, key, 'Bootstrap key');
      const file = this.writeKeyFile(key);
      // The one time this key is shown: the contract asks for it in the log and in the file.
      this.logger.warn(`Bootstrap API key (shown once, also in ${file}): ${key}`);
    }
  }

  private async bootstrapOrganization(): Promise<{ organization: Organization; created: boolean }> {
    const manager = this.dataSource.manager;
    const existing = await findOrganizationBySlug(manager, BOOTSTRAP_SLUG);
    if (existing) return { organization: existing, created: false };
    const organization: Organization = { id: newId('org'), slug: BOOTSTRAP_SLUG, name: 'Default organization', createdAt: Date.now() };
    try {
      await insertOrganization(manager, organization);
      return { organization, created: true };
    } catch (err) {
      // Another replica made it first.
      if (!isUniqueViolation(err)) throw err;
      const made = await findOrganizationBySlug(manager, BOOTSTRAP_SLUG);
      if (!made) throw err;
      return { organization: made, created: false };
    }
  }

  private async ensureKey(orgId: string, key: string, name: string): Promise<void> {
    const keyHash = hashApiKey(key);
    const existing = await findKeyByHash(this.dataSource.manager, keyHash);
    if (existing) {
      if (existing.revokedAt !== null) await unrevokeKey(this.dataSource.manager, existing.id);
      return;
    }
    try {
      await insertApiKey(this.dataSource.manager, newApiKeyRow({ orgId, name, scopes: ['admin'], instanceAdmin: true, credential: digestOf(key) }));
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }

  private writeKeyFile(key: string): string {
    const file = path.resolve(this.env.DATA_DIR, BOOTSTRAP_KEY_FILE);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
    return file;
  }
}
