import { CreatePromptInput, DeletedPromptView, DomainError, ErrorCode, FieldChange, ProjectContext, PromptAction, PromptView, UpdatePromptInput } from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction, isUniqueViolation, toIso } from '@cinetrace/persistence';
import { insertWithDerivedSlug } from '@cinetrace/slugs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PromptActivity } from '../store/prompt-activity.entity';
import { insertPromptActivity } from '../store/prompt-activity.queries';
import { replacePromptLabels } from '../store/prompt-labels.queries';
import { PromptVersion } from '../store/prompt-version.entity';
import { insertPromptVersion } from '../store/prompt-versions.queries';
import { Prompt } from '../store/prompt.entity';
import { gatedReleaseNames } from '../store/prompt-releases.queries';
import { advancePrompt, findLivePrompt, gateReservedIdentifiers, insertPrompt, liveIdentifiersLike, softDeletePrompt } from '../store/prompts.queries';
import { diffPrompt } from './prompt-changes';
import { deriveIdentifier, extractVariables } from './prompt-text';
import { toPromptView } from './prompt.views';

/** Concurrent PUTs without If-Match: the loser re-reads and applies its change on top. */
const UPDATE_ATTEMPTS = 10;

class LostUpdateRace extends Error {}

/** Writes of prompts: each in one transaction with its version row and activity row. */
@Injectable()
export class PromptsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** `mayChangeGate`: the caller's key has `admin`, so it may take an identifier a gate reserves. */
  async create(ctx: ProjectContext, input: CreatePromptInput, mayChangeGate = false): Promise<PromptView> {
    if (input.identifier !== undefined) {
      try {
        return await this.insert(ctx, input, input.identifier, mayChangeGate);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        throw new DomainError(ErrorCode.Conflict, `A prompt with identifier '${input.identifier}' already exists in this project`);
      }
    }
    const base = deriveIdentifier(input.name);
    return insertWithDerivedSlug(base, {
      // A derived identifier never lands on one a gate reserves, whoever asks.
      taken: async (slug) => {
        const [live, reserved] = await Promise.all([
          liveIdentifiersLike(this.dataSource.manager, ctx.projectId, slug),
          gateReservedIdentifiers(this.dataSource.manager, ctx.projectId, { base: slug }),
        ]);
        return new Set([...live, ...reserved]);
      },
      insert: (identifier) => this.insert(ctx, input, identifier, mayChangeGate),
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

  /** `mayChangeGate`: the caller's key has `admin`, which a prompt with a gated release needs. */
  async delete(ctx: ProjectContext, id: string, ifMatch?: number[], mayChangeGate = false): Promise<DeletedPromptView> {
    return inTransaction(this.dataSource, async (tx) => {
      const prompt = await findLive(tx, ctx, id);
      checkIfMatch(prompt, ifMatch);
      const now = Date.now();
      if (!(await softDeletePrompt(tx, id, now))) throw notFound(id);
      // Read after the row is locked by the delete: a gate set meanwhile has committed or waits for this transaction.
      const gated = await gatedReleaseNames(tx, id);
      if (gated.length && !mayChangeGate) {
        throw new DomainError(ErrorCode.InsufficientScope, `Prompt '${id}' has a gated release (${quoted(gated)}); deleting it needs an API key with the 'admin' scope`);
      }
      await insertPromptActivity(tx, activity(ctx, id, 'deleted', prompt.version, now, { deletedAt: { from: null, to: toIso(now) } }));
      return { id, deleted: true, deletedAt: toIso(now) };
    });
  }

  private insert(ctx: ProjectContext, input: CreatePromptInput, identifier: string, mayChangeGate: boolean): Promise<PromptView> {
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
      await insertPrompt(tx, prompt);
      // Checked after the insert: it waited for any delete of the identifier's holder, whose gates are then visible.
      if (!mayChangeGate && (await gateReservedIdentifiers(tx, ctx.projectId, { identifier }, prompt.id)).size) throw identifierReserved(identifier);
      await insertPromptVersion(tx, snapshot(prompt));
      await replacePromptLabels(tx, prompt.id, prompt.labels);
      await insertPromptActivity(tx, activity(ctx, prompt.id, 'created', 1, now, created));
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
    const change = { name: next.name, content: next.content, labels: next.labels, metadata: next.metadata, variables: next.variables, version: next.version, updatedAt: now };
    if (!(await advancePrompt(tx, id, prompt.version, change))) throw new LostUpdateRace();
    await insertPromptVersion(tx, { ...snapshot(next), createdAt: now });
    if (changes.labels) await replacePromptLabels(tx, id, next.labels);
    await insertPromptActivity(tx, activity(ctx, id, 'updated', next.version, now, changes));
    return toPromptView(next);
  }
}

/** The caller's live prompt, or 404. */
export async function findLive(tx: EntityManager, ctx: ProjectContext, id: string): Promise<Prompt> {
  const prompt = await findLivePrompt(tx, ctx.projectId, id);
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

const quoted = (names: string[]) => names.map((name) => `'${name}'`).join(', ');

const identifierReserved = (identifier: string) =>
  new DomainError(ErrorCode.InsufficientScope, `Identifier '${identifier}' belonged to a deleted prompt with a gated release; taking it needs an API key with the 'admin' scope`, [
    { path: 'identifier', message: 'is reserved by the gated releases of the deleted prompt that held it' },
  ]);

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

/** An activity row of the prompt, by the caller's key. */
export function activity(ctx: ProjectContext, promptId: string, action: PromptAction, version: number, at: number, changes: Record<string, FieldChange>): PromptActivity {
  return { id: newId('act'), promptId, action, version, actorType: 'api_key', actorId: ctx.apiKeyId, at, changes };
}
