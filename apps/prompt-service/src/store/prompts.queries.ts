import { dialectOf, insertRows } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';
import { IsNull, Like } from 'typeorm';
import { Prompt } from './prompt.entity';

export const insertPrompt = (tx: EntityManager, prompt: Prompt): Promise<void> => insertRows(tx, Prompt, prompt);

/** The project's prompt that is not deleted. */
export const findLivePrompt = (manager: EntityManager, projectId: string, id: string): Promise<Prompt | null> => manager.findOneBy(Prompt, { id, projectId, deletedAt: IsNull() });

/** The project's prompt by id or identifier; a deleted one only when `includeDeleted` (an identifier names only a live prompt: a deleted one freed it). */
export const findPrompt = (manager: EntityManager, projectId: string, key: { id: string } | { identifier: string }, includeDeleted: boolean): Promise<Prompt | null> =>
  manager.findOneBy(Prompt, { projectId, ...key, ...(includeDeleted ? {} : { deletedAt: IsNull() }) });

/** Whether the project has (or had: deleted ones count) this prompt. */
export const promptExists = (manager: EntityManager, projectId: string, id: string): Promise<boolean> => manager.existsBy(Prompt, { id, projectId });

export interface PromptListFilter {
  includeDeleted?: boolean;
  type?: string;
  label?: string;
  /** Lower-case; matched anywhere in the name or the identifier. */
  search?: string;
}

/**
 * The project's prompts, newest first, `rows` of them from after the key `after`. The
 * query builder of the same EntityManager: a label is an EXISTS over prompt_labels and a
 * search an OR of two LIKEs with an escape, which find options do not say.
 */
export function listPrompts(manager: EntityManager, projectId: string, filter: PromptListFilter, after: string | undefined, rows: number): Promise<Prompt[]> {
  const query = manager.createQueryBuilder(Prompt, 'p').where('p.project_id = :projectId', { projectId }).orderBy('p.id', 'DESC').limit(rows);
  if (!filter.includeDeleted) query.andWhere('p.deleted_at IS NULL');
  if (filter.type !== undefined) query.andWhere('p.type = :type', { type: filter.type });
  if (filter.label !== undefined) {
    query.andWhere('EXISTS (SELECT 1 FROM prompt_labels l WHERE l.prompt_id = p.id AND l.label = :label)', { label: filter.label });
  }
  if (filter.search !== undefined && filter.search !== '') {
    query.andWhere("(LOWER(p.name) LIKE :q ESCAPE '\\' OR LOWER(p.identifier) LIKE :q ESCAPE '\\')", { q: `%${escapeLike(filter.search)}%` });
  }
  if (after !== undefined) query.andWhere('p.id < :after', { after });
  return query.getMany();
}

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Live identifiers of the project that are `base` or `base-<anything>` (a derived base holds only a-z, 0-9 and '-': nothing LIKE would read as a wildcard). */
export async function liveIdentifiersLike(manager: EntityManager, projectId: string, base: string): Promise<Set<string>> {
  const live = { projectId, deletedAt: IsNull() };
  const rows = await manager.find(Prompt, {
    select: { identifier: true },
    where: [
      { ...live, identifier: base },
      { ...live, identifier: Like(`${base}-%`) },
    ],
  });
  return new Set(rows.map((r) => r.identifier));
}

/**
 * Which of the identifiers matched are reserved by a gate: the newest prompt that held the
 * identifier (other than `besides`, a prompt being created) is deleted and had a gated
 * release. Clients resolve releases by identifier, so a gate must outlive its prompt there.
 */
export async function gateReservedIdentifiers(manager: EntityManager, projectId: string, match: { identifier: string } | { base: string }, besides?: string): Promise<Set<string>> {
  const query = manager
    .createQueryBuilder(Prompt, 'p')
    .select('DISTINCT p.identifier', 'identifier')
    .where('p.project_id = :projectId', { projectId })
    .andWhere('p.deleted_at IS NOT NULL')
    .andWhere('EXISTS (SELECT 1 FROM prompt_releases r WHERE r.prompt_id = p.id AND r.gate IS NOT NULL)')
    .andWhere('NOT EXISTS (SELECT 1 FROM prompts n WHERE n.project_id = p.project_id AND n.identifier = p.identifier AND n.id > p.id AND n.id <> :besides)', {
      besides: besides ?? '',
    });
  if ('identifier' in match) query.andWhere('p.identifier = :identifier', { identifier: match.identifier });
  else query.andWhere('(p.identifier = :base OR p.identifier LIKE :pattern)', { base: match.base, pattern: `${match.base}-%` });
  const rows = await query.getRawMany<{ identifier: string }>();
  return new Set(rows.map((row) => row.identifier));
}

/** Writes the prompt's next version if it is still at `from` and live (compare-and-set); false when another writer moved it first. */
export async function advancePrompt(
  tx: EntityManager,
  id: string,
  from: number,
  next: Pick<Prompt, 'name' | 'content' | 'labels' | 'metadata' | 'variables' | 'version' | 'updatedAt'>,
): Promise<boolean> {
  const result = await tx.update(Prompt, { id, version: from, deletedAt: IsNull() }, { ...next, metadata: next.metadata as object });
  return Boolean(result.affected);
}

/** Locks the live prompt's row until the transaction ends (PostgreSQL; SQLite writes one transaction at a time); false when it is not live. */
export async function lockLivePrompt(tx: EntityManager, projectId: string, id: string): Promise<boolean> {
  const query = tx.createQueryBuilder(Prompt, 'p').select('p.id').where('p.id = :id AND p.project_id = :projectId AND p.deleted_at IS NULL', { id, projectId });
  if (dialectOf(tx) === 'postgres') query.setLock('pessimistic_write');
  return (await query.getOne()) !== null;
}

/** False when the prompt was no longer live. */
export async function softDeletePrompt(tx: EntityManager, id: string, now: number): Promise<boolean> {
  const result = await tx.update(Prompt, { id, deletedAt: IsNull() }, { deletedAt: now, updatedAt: now });
  return Boolean(result.affected);
}
