import { isUniqueViolation } from '@cinetrace/persistence';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { findSetting, insertSetting } from '../store/gateway-settings.queries';

/**
 * A random secret stored in the gateway's own database, made by whichever replica
 * asks first, so every replica signs and verifies cursors alike with no configuration.
 */
export async function sharedSecret(dataSource: DataSource, name: string): Promise<Buffer> {
  const manager = dataSource.manager;
  const existing = await findSetting(manager, name);
  if (existing) return Buffer.from(existing.value, 'base64');
  try {
    await insertSetting(manager, { name, value: randomBytes(32).toString('base64') });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const made = await findSetting(manager, name);
  if (!made) throw new Error(`The gateway setting '${name}' could not be stored`);
  return Buffer.from(made.value, 'base64');
}
