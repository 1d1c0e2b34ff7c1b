import { isUniqueViolation } from '@cinetrace/persistence';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { GatewaySetting } from '../store/gateway-setting.entity';

/**
 * A random secret stored in the gateway's own database, made by whichever replica
 * asks first, so every replica signs and verifies cursors alike with no configuration.
 */
export async function sharedSecret(dataSource: DataSource, name: string): Promise<Buffer> {
  const settings = dataSource.getRepository(GatewaySetting);
  const existing = await settings.findOneBy({ name });
  if (existing) return Buffer.from(existing.value, 'base64');
  try {
    await settings.insert({ name, value: randomBytes(32).toString('base64') });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  return Buffer.from((await settings.findOneByOrFail({ name })).value, 'base64');
}
