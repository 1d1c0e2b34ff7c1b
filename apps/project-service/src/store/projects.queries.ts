import { insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { And, In, LessThan, Like } from 'typeorm';
import { Project } from './project.entity';

export const insertProject = (manager: EntityManager, project: Project): Promise<void> => insertRows(manager, Project, project);

export const findProject = (manager: EntityManager, orgId: string, id: string): Promise<Project | null> => manager.findOneBy(Project, { id, orgId });

export const findProjectByKey = (manager: EntityManager, orgId: string, key: string): Promise<Project | null> => manager.findOneBy(Project, { orgId, key });

/** By id alone: for a caller that holds a project id from a task, not an organization. */
export const findProjectById = (manager: EntityManager, id: string): Promise<Project | null> => manager.findOneBy(Project, { id });

/** Which of `ids` are projects of the organization. */
export async function projectIdsAmong(manager: EntityManager, orgId: string, ids: string[]): Promise<Set<string>> {
  const found = await manager.find(Project, { select: { id: true }, where: { orgId, id: In(ids) } });
  return new Set(found.map((p) => p.id));
}

/** The organization's projects (only `visible` ones when given), newest first, `rows` of them from after the key `after`. */
export function listProjects(manager: EntityManager, orgId: string, filters: { visible?: string[]; name?: string }, after: string | undefined, rows: number): Promise<Project[]> {
  const id = [...(filters.visible ? [In(filters.visible)] : []), ...(after !== undefined ? [LessThan(after)] : [])];
  return manager.find(Project, {
    where: { orgId, ...(filters.name !== undefined ? { name: filters.name } : {}), ...(id.length ? { id: And(...id) } : {}) },
    order: { id: 'DESC' },
    take: rows,
  });
}

/** The keys of the organization that are `base` or `base-<anything>` (a derived base holds only a-z, 0-9 and '-': nothing LIKE would read as a wildcard). */
export async function projectKeysLike(manager: EntityManager, orgId: string, base: string): Promise<Set<string>> {
  const rows = await manager.find(Project, {
    select: { key: true },
    where: [
      { orgId, key: base },
      { orgId, key: Like(`${base}-%`) },
    ],
  });
  return new Set(rows.map((r) => r.key));
}
