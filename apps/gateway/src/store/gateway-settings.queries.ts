import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { GatewaySetting } from './gateway-setting.entity';

export const findSetting = (manager: EntityManager, name: string): Promise<GatewaySetting | null> => manager.findOneBy(GatewaySetting, { name });

/** Fails on the primary key when the setting exists. */
export const insertSetting = (manager: EntityManager, setting: GatewaySetting): Promise<void> => insertRows(manager, GatewaySetting, setting);
