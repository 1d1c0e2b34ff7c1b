import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { Organization } from './organization.entity';

export const insertOrganization = (manager: EntityManager, organization: Organization): Promise<void> => insertRows(manager, Organization, organization);

export const findOrganizationBySlug = (manager: EntityManager, slug: string): Promise<Organization | null> => manager.findOneBy(Organization, { slug });

/** Serialises writers of one organization: a row lock on PostgreSQL; SQLite's transactions already run one at a time. */
export async function lockOrganization(tx: EntityManager, orgId: string): Promise<void> {
  if (tx.connection.options.type === 'postgres') await tx.findOne(Organization, { select: { id: true }, where: { id: orgId }, lock: { mode: 'pessimistic_write' } });
}
