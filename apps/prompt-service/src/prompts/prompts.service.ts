import { CreatePromptInput, DeletedPromptView, DomainError, ErrorCode, FieldChange, ProjectContext, PromptAction, PromptView, UpdatePromptInput } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { insertRows, inTransaction, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { insertWithDerivedSlug } from '@cinetrace/slugs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PromptActivity } from '../store/prompt-activity.entity';
import { diffPrompt } from './prompt-changes';
import { PromptLabel } from '../store/prompt-label.entity';
import { deriveIdentifier, extractVariables } from './prompt-text';
import { PromptVersion } from '../store/prompt-version.entity';
import { Prompt } from '../store/prompt.entity';
import { toPromptView } from './prompt.views';

/** Concurrent PUTs without If-Match: the loser re-reads and applies its change on top. */
const UPDATE_ATTEMPTS = 10;

class LostUpdateRace extends Error {}

/** Writes of prompts: each in one transaction with its version row and activity row. */
@Injectable()
export class PromptsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async create(ctx: ProjectContext, input: CreatePromptInput): Promise<PromptView> {
    if (input.identifier !== undefined) {
      try {
        return await this.insert(ctx, input, input.identifier);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        throw new DomainError(ErrorCode.Conflict, `A prompt with identifier '${input.identifier}' already exists in this project`);
      }
    }
    const base = deriveIdentifier(input.name);
    return insertWithDerivedSlug(base, {
      taken: (slug) => this.liveIdentifiersLike(ctx.projectId, slug),
      insert: (identifier) => this.insert(ctx, input, identifier),
      isCollision: isUniqueViolation,
    });
  }

  async update(ctx: ProjectContext, id: string, input: UpdatePromptInput, ifMatch?: number[]): Promise<PromptView> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.dataSource, (tx) => this.updateOnce(tx, ctx, id, input, ifMatch));
      } catch (err) {
        if (!(err instanceof LostUpdateRace)) throw err;
        // Someone else wrote a version first: with If-Match the client's version is now stale.
        if (ifMatch || attempt >= UPDATE_ATTEMPTS) throw staleVersion(id, ifMatch);
      }
    }
  }

  async delete(ctx: ProjectContext, id: string, ifMatch?: number[]): Promise<DeletedPromptView> {
    return inTransaction(this.dataSource, async (tx) => {
      const prompt = await findLive(tx, ctx, id);
      checkIfMatch(prompt, ifMatch);
      const now = Date.now();
      const result = await tx.createQueryBuilder().update(Prompt).set({ deletedAt: now, updatedAt: now }).where('id = :id AND deleted_at IS NULL', { id }).execute();
      if (!result.affected) throw notFound(id);
      await insertRows(tx, PromptActivity, activity(ctx, id, 'deleted', prompt.version, now, { deletedAt: { from: null, to: toIso(now) } }));
      return { id, deleted: true, deletedAt: toIso(now) };
    });
  }

  private insert(ctx: ProjectContext, input: CreatePromptInput, identifier: string): Promise<PromptView> {
    const now = Date.now();
    const prompt: Prompt = {
      id: newId('prm'),
      projectId: ctx.projectId,
      identifier,
      name: input.name,
      content: input.content,
      type: input.type,
      labels: input.labels ?? [],
      metadata: input.metadata ?? {},
      variables: extractVariables(input.content),
      version: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    };
    const created: Record<string, FieldChange> = {};
    for (const field of ['name', 'content', 'type', 'identifier', 'labels', 'metadata'] as const) {
      created[field] = { from: null, to: prompt[field] };
    }
    return inTransaction(this.dataSource, async (tx) => {
      await insertRows(tx, Prompt, prompt);
      await insertRows(tx, PromptVersion, snapshot(prompt));
      await replaceLabels(tx, prompt.id, prompt.labels);
      await insertRows(tx, PromptActivity, activity(ctx, prompt.id, 'created', 1, now, created));
      return toPromptView(prompt);
    });
  }

  private async updateOnce(tx: EntityManager, ctx: ProjectContext, id: string, input: UpdatePromptInput, ifMatch?: number[]): Promise<PromptView> {
    const prompt = await findLive(tx, ctx, id);
    checkIfMatch(prompt, ifMatch);
    const changes = diffPrompt(prompt, input);
    if (Object.keys(changes).length === 0) return toPromptView(prompt);

    const now = Date.now();
    const next: Prompt = { ...prompt, ...definedFields(input), version: prompt.version + 1, updatedAt: now };
    next.variables = extractVariables(next.content);
    // Compare-and-set on the version: two writers can never both produce version N+1.
    const result = await tx
      .createQueryBuilder()
      .update(Prompt)
      .set({
        name: next.name,
        content: next.content,
        labels: next.labels,
        metadata: next.metadata as object,
        variables: next.variables,
        version: next.version,
        updatedAt: now,
      })
      .where('id = :id AND version = :version AND deleted_at IS NULL', { id, version: prompt.version })
      .execute();
    if (!result.affected) throw new LostUpdateRace();
    await insertRows(tx, PromptVersion, { ...snapshot(next), createdAt: now });
    if (changes.labels) await replaceLabels(tx, id, next.labels);
    await insertRows(tx, PromptActivity, activity(ctx, id, 'updated', next.version, now, changes));
    return toPromptView(next);
  }

  /** Live identifiers of the project that are `base` or `base-<anything>`. */
  private async liveIdentifiersLike(projectId: string, base: string): Promise<Set<string>> {
    const rows = await this.dataSource
      .getRepository(Prompt)
      .createQueryBuilder('p')
      .select('p.identifier', 'identifier')
      .where('p.project_id = :projectId AND p.deleted_at IS NULL', { projectId })
      // A derived base holds only a-z, 0-9 and '-': nothing LIKE would read as a wildcard.
      .andWhere('(p.identifier = :base OR p.identifier LIKE :prefix)', { base, prefix: `${base}-%` })
      .getRawMany<{ identifier: string }>();
    return new Set(rows.map((r) => r.identifier));
  }
}

/** The caller's live prompt, or 404. */
export async function findLive(tx: EntityManager, ctx: ProjectContext, id: string): Promise<Prompt> {
  const prompt = await tx
    .getRepository(Prompt)
    .createQueryBuilder('p')
    .where('p.id = :id AND p.project_id = :projectId AND p.deleted_at IS NULL', { id, projectId: ctx.projectId })
    .getOne();
  if (!prompt) throw notFound(id);
  return prompt;
}

function checkIfMatch(prompt: Prompt, ifMatch?: number[]): void {
  if (ifMatch && !ifMatch.includes(prompt.version)) throw staleVersion(prompt.id, ifMatch, prompt.version);
}

function staleVersion(id: string, ifMatch: number[] | undefined, current?: number): DomainError {
  const now = current === undefined ? 'has changed' : `is at version ${current}`;
  const expected = ifMatch ? `; If-Match named ${ifMatch.map((v) => `"${v}"`).join(', ')}` : '';
  return new DomainError(ErrorCode.PreconditionFailed, `Prompt '${id}' ${now}${expected}`);
}

const notFound = (id: string) => DomainError.notFound(`No prompt with id '${id}' in this project`);

function definedFields(input: UpdatePromptInput): Partial<Prompt> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}

function snapshot(p: Prompt): PromptVersion {
  return {
    promptId: p.id,
    version: p.version,
    name: p.name,
    content: p.content,
    labels: p.labels,
    metadata: p.metadata,
    variables: p.variables,
    createdAt: p.createdAt,
  };
}

async function replaceLabels(tx: EntityManager, promptId: string, labels: string[]): Promise<void> {
  await tx.delete(PromptLabel, { promptId });
  if (labels.length)
    await insertRows(
      tx,
      PromptLabel,
      labels.map((label) => ({ promptId, label })),
    );
}

/** An activity row of the prompt, by the caller's key. */
export function activity(ctx: ProjectContext, promptId: string, action: PromptAction, version: number, at: number, changes: Record<string, FieldChange>): PromptActivity {
  return { id: newId('act'), promptId, action, version, actorType: 'api_key', actorId: ctx.apiKeyId, at, changes };
}
