import {
  DomainError,
  ErrorCode,
  rowsForPage,
  SCORE_LIMITS,
  toPage,
  type FieldError,
  type Page,
  type ProjectContext,
  type ScoreBatchItemResult,
  type ScoreBatchRequest,
  type ScoreBatchView,
  type ScoreConfigCreateRequest,
  type ScoreConfigListRequest,
  type ScoreConfigUpdateRequest,
  type ScoreConfigView,
  type ScoreCreateReply,
  type ScoreCreateRequest,
  type ScoreDeleteRequest,
  type ScoreListKey,
  type ScoreListRequest,
  type ScoreView,
} from '@cinetrace/contracts';
import { newId } from '@cinetrace/ids';
import { inTransaction, isUniqueViolation } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { checkScoreConfigChange, checkScoreConfigInput } from './score-config-input';
import { applyConfig, checkScoreInput, type ScoreDraft } from './score-input';
import {
  countScoreConfigs,
  deleteScore,
  insertScoreConfig,
  insertScores,
  scoreConfigView,
  scoreView,
  selectLiveConfigsByName,
  selectScoreConfigs,
  selectScoreConfigPage,
  selectScorePage,
  selectScoresById,
  updateScoreConfig,
  type StoredScore,
  type StoredScoreConfig,
} from './scores.store';

/** One score of a request, checked: stored, or refused with its fields. */
type Checked = { ok: true; score: StoredScore; authorSent: boolean } | { ok: false; errors: FieldError[] };

/** The fields a client's re-sent score must repeat to be the same score (createdAt is the store's; author only when it was sent). */
const SAME_FIELDS = ['traceId', 'spanId', 'name', 'value', 'stringValue', 'dataType', 'source', 'comment', 'configId', 'evaluatorId'] as const;

/**
 * The scores the API writes (API.md, "Scores"): checked against the project's configs, stored
 * beside the traces (a score may come before its trace), listed and deleted; and the configs.
 * Every statement is scoped by the caller's project. Benchmark tasks' scores arrive on the
 * trace stream instead (TraceWriter).
 */
@Injectable()
export class ScoresService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** 201 a new score; 200 the stored one when the client re-sent its id with the same body; 409 with another body. */
  async create({ ctx, input }: ScoreCreateRequest): Promise<ScoreCreateReply> {
    const [result] = await this.store(ctx, [input]);
    if ('errors' in result) {
      if (result.conflict) throw new DomainError(ErrorCode.Conflict, result.errors[0].message);
      throw DomainError.validation(result.errors, 'The score is not valid');
    }
    return { score: result.score, created: result.created };
  }

  /** Each item stored or refused on its own (207), as the trace batch answers. */
  async batch({ ctx, items }: ScoreBatchRequest): Promise<ScoreBatchView> {
    if (!Array.isArray(items) || items.length > SCORE_LIMITS.batch) {
      throw DomainError.validation([{ path: 'scores', message: `must be an array of at most ${SCORE_LIMITS.batch} scores` }]);
    }
    const results = await this.store(ctx, items);
    const answer: ScoreBatchItemResult[] = results.map((result, index) => {
      if ('errors' in result) {
        const raw = items[index] as { id?: unknown } | null;
        return { index, id: raw && typeof raw === 'object' && typeof raw.id === 'string' ? raw.id : null, result: 'rejected', errors: result.errors };
      }
      return { index, id: result.score.id, result: 'accepted' };
    });
    const accepted = answer.filter((a) => a.result === 'accepted').length;
    return { accepted, rejected: items.length - accepted, items: answer };
  }

  async list({ ctx, filters, page }: ScoreListRequest): Promise<Page<ScoreView, ScoreListKey>> {
    const rows = await selectScorePage(this.dataSource.manager, ctx.projectId, filters, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (s): ScoreListKey => [s.createdAt, s.id]);
    return { items: items.map(scoreView), nextKey };
  }

  async delete({ ctx, id }: ScoreDeleteRequest): Promise<Record<string, never>> {
    if (!(await deleteScore(this.dataSource.manager, ctx.projectId, id))) throw DomainError.notFound(`No score with id '${id}' in this project`);
    return {};
  }

  async createConfig({ ctx, input }: ScoreConfigCreateRequest): Promise<ScoreConfigView> {
    const draft = checkScoreConfigInput(input);
    const now = Date.now();
    const config: StoredScoreConfig = { id: newId('scfg'), ...draft, archived: false, createdAt: now, updatedAt: now };
    try {
      await inTransaction(this.dataSource, async (manager) => {
        if ((await countScoreConfigs(manager, ctx.projectId)) >= SCORE_LIMITS.configs) {
          throw new DomainError(ErrorCode.Conflict, `The project holds ${SCORE_LIMITS.configs} score configs, the most it may`);
        }
        await insertScoreConfig(manager, ctx.projectId, config);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new DomainError(ErrorCode.Conflict, `A score config named '${draft.name}' exists in this project`);
      throw error;
    }
    return scoreConfigView(config);
  }

  async listConfigs({ ctx, page }: ScoreConfigListRequest): Promise<Page<ScoreConfigView, string>> {
    const rows = await selectScoreConfigPage(this.dataSource.manager, ctx.projectId, page.after, rowsForPage(page));
    const { items, nextKey } = toPage(rows, page.limit, (c) => c.id);
    return { items: items.map(scoreConfigView), nextKey };
  }

  async updateConfig({ ctx, id, input }: ScoreConfigUpdateRequest): Promise<ScoreConfigView> {
    const change = checkScoreConfigChange(input);
    const updated = await updateScoreConfig(this.dataSource.manager, ctx.projectId, id, change, Date.now());
    if (!updated) throw DomainError.notFound(`No score config with id '${id}' in this project`);
    return scoreConfigView(updated);
  }

  /**
   * Checks and stores the inputs; answers each one's result in order. Configs are read once
   * for the request (by id and by the names sent), then the new scores are inserted in one
   * statement where their id is free; a client id already held is compared with its body.
   */
  private async store(ctx: ProjectContext, inputs: unknown[]): Promise<Array<{ score: ScoreView; created: boolean } | { errors: FieldError[]; conflict?: boolean }>> {
    const errorsOf = inputs.map((): FieldError[] => []);
    const drafts = inputs.map((input, i) => checkScoreInput(input, errorsOf[i]));
    const manager = this.dataSource.manager;
    const configs = await this.configsFor(manager, ctx.projectId, drafts);
    const now = Date.now();
    const checked: Checked[] = drafts.map((draft, i) => {
      if (!draft) return { ok: false, errors: errorsOf[i] };
      const config = draft.configId !== undefined ? configs.byId.get(draft.configId) : configs.byName.get(draft.name);
      if (draft.configId !== undefined && !config) return { ok: false, errors: [{ path: 'configId', message: `No score config with id '${draft.configId}' in this project` }] };
      const value = applyConfig(draft, config, errorsOf[i]);
      if (!value) return { ok: false, errors: errorsOf[i] };
      return { ok: true, score: stored(ctx, draft, value, now), authorSent: draft.author !== undefined };
    });
    const fresh = checked.flatMap((c) => (c.ok ? [c.score] : []));
    // A batch naming one id twice: the first stands, the second is compared with it as with a stored one.
    const firstOfId = new Map<string, StoredScore>();
    for (const score of fresh) if (!firstOfId.has(score.id)) firstOfId.set(score.id, score);
    const inserted = await insertScores(manager, [...firstOfId.values()]);
    const held = await selectScoresById(
      manager,
      ctx.projectId,
      fresh.filter((s) => !inserted.has(s.id)).map((s) => s.id),
    );
    const claimed = new Set<string>();
    return checked.map((c) => {
      if (!c.ok) return { errors: c.errors };
      const { score } = c;
      if (inserted.has(score.id) && !claimed.has(score.id)) {
        claimed.add(score.id);
        return { score: scoreView(score), created: true };
      }
      const existing = held.get(score.id) ?? firstOfId.get(score.id)!;
      if (sameScore(existing, score, c.authorSent)) return { score: scoreView(existing), created: false };
      return { conflict: true, errors: [{ path: 'id', message: `A score with id '${score.id}' and another body exists in this project` }] };
    });
  }

  /** The configs the drafts name by id, and the live configs of their names. */
  private async configsFor(manager: EntityManager, projectId: string, drafts: Array<ScoreDraft | undefined>) {
    const ids = [...new Set(drafts.flatMap((d) => (d?.configId !== undefined ? [d.configId] : [])))];
    const names = [...new Set(drafts.flatMap((d) => (d && d.configId === undefined ? [d.name] : [])))];
    return { byId: await selectScoreConfigs(manager, projectId, ids), byName: await selectLiveConfigsByName(manager, projectId, names) };
  }
}

function stored(ctx: ProjectContext, draft: ScoreDraft, value: ReturnType<typeof applyConfig> & object, now: number): StoredScore {
  return {
    projectId: ctx.projectId,
    id: draft.id ?? newId('sc'),
    traceId: draft.traceId,
    spanId: draft.spanId,
    name: draft.name,
    ...value,
    source: draft.source,
    comment: draft.comment,
    evaluatorId: draft.evaluatorId,
    // Who wrote it: as the client says, else the key it wrote with.
    author: draft.author ?? ctx.apiKeyId,
    createdAt: now,
  };
}

function sameScore(held: StoredScore, sent: StoredScore, authorSent: boolean): boolean {
  return SAME_FIELDS.every((field) => held[field] === sent[field]) && (!authorSent || held.author === sent.author);
}
