import type { ScoreConfigView, ScoreDataType, ScoreListFilters, ScoreListKey, ScoreSource, ScoreView } from '@cinetrace/contracts';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import { toEpochMs } from '@cinetrace/traces';
import type { EntityManager } from 'typeorm';
import { isoTime } from '../reads/readable-time';
import type { ConfigRule } from './score-input';

// The scores and score configs, as hand-built SQL like the traces beside them: every
// statement is scoped by the caller's project and binds every value.

/** A score as stored (createdAt in epoch milliseconds). */
export interface StoredScore {
  projectId: string;
  id: string;
  traceId: string;
  spanId: string | null;
  name: string;
  value: number | null;
  stringValue: string | null;
  dataType: ScoreDataType;
  source: ScoreSource;
  comment: string | null;
  configId: string | null;
  evaluatorId: string | null;
  author: string | null;
  createdAt: number;
}

const SCORE_COLUMNS = 'project_id, id, trace_id, span_id, name, value, string_value, data_type, source, comment, config_id, evaluator_id, author, created_at';

type Row = Record<string, unknown>;

/** The rows an UPDATE or DELETE … RETURNING gave: TypeORM's PostgreSQL driver answers those as [rows, count]. */
const returned = (result: unknown): Row[] =>
  Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number' ? (result[0] as Row[]) : (result as Row[]);
const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

const scoreFromRow = (r: Row): StoredScore => ({
  projectId: r.project_id as string,
  id: r.id as string,
  traceId: r.trace_id as string,
  spanId: (r.span_id as string | null) ?? null,
  name: r.name as string,
  value: numberOrNull(r.value),
  stringValue: (r.string_value as string | null) ?? null,
  dataType: r.data_type as ScoreDataType,
  source: r.source as ScoreSource,
  comment: (r.comment as string | null) ?? null,
  configId: (r.config_id as string | null) ?? null,
  evaluatorId: (r.evaluator_id as string | null) ?? null,
  author: (r.author as string | null) ?? null,
  createdAt: Number(r.created_at),
});

export const scoreView = (s: StoredScore): ScoreView => ({
  id: s.id,
  traceId: s.traceId,
  spanId: s.spanId,
  name: s.name,
  value: s.value,
  stringValue: s.stringValue,
  dataType: s.dataType,
  source: s.source,
  comment: s.comment,
  configId: s.configId,
  evaluatorId: s.evaluatorId,
  author: s.author,
  createdAt: isoTime(s.createdAt),
});

/** What a trace summary shows of a score: its label when it has one, else its number. */
export const summaryValue = (s: Pick<StoredScore, 'value' | 'stringValue'>): number | string | null => s.stringValue ?? s.value;

/**
 * Inserts the scores whose id the project does not hold yet; answers the ids inserted. With
 * `replace`, a score of an id already held is written over (the trace stream's: a benchmark
 * task's later attempt gives its scores anew).
 */
export async function insertScores(manager: EntityManager, scores: readonly StoredScore[], { replace = false } = {}): Promise<Set<string>> {
  if (!scores.length) return new Set();
  const sql = new SqlBuilder(dialectOf(manager));
  const values = scores.map(
    (s) =>
      `(${sql.bindAll([s.projectId, s.id, s.traceId, s.spanId, s.name])}, ${sql.bindAs(s.value, 'double precision')}, ${sql.bindAll([
        s.stringValue,
        s.dataType,
        s.source,
        s.comment,
        s.configId,
        s.evaluatorId,
        s.author,
      ])}, ${sql.bindAs(s.createdAt, 'bigint')})`,
  );
  const onConflict = replace
    ? `DO UPDATE SET trace_id = excluded.trace_id, span_id = excluded.span_id, name = excluded.name, value = excluded.value, string_value = excluded.string_value,
         data_type = excluded.data_type, source = excluded.source, comment = excluded.comment, config_id = excluded.config_id,
         evaluator_id = excluded.evaluator_id, author = excluded.author, created_at = excluded.created_at`
    : 'DO NOTHING';
  const rows: Array<{ id: string }> = await manager.query(
    `INSERT INTO scores (${SCORE_COLUMNS}) VALUES ${values.join(', ')} ON CONFLICT (project_id, id) ${onConflict} RETURNING id`,
    sql.params,
  );
  return new Set(rows.map((r) => r.id));
}

export async function selectScoresById(manager: EntityManager, projectId: string, ids: readonly string[]): Promise<Map<string, StoredScore>> {
  if (!ids.length) return new Map();
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Row[] = await manager.query(`SELECT ${SCORE_COLUMNS} FROM scores WHERE project_id = ${sql.bind(projectId)} AND id IN (${sql.bindAll(ids)})`, sql.params);
  return new Map(rows.map((r) => [r.id as string, scoreFromRow(r)]));
}

/** Every score of the trace and its spans, oldest first. */
export async function selectScoresOfTrace(manager: EntityManager, projectId: string, traceId: string): Promise<StoredScore[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Row[] = await manager.query(
    `SELECT ${SCORE_COLUMNS} FROM scores WHERE project_id = ${sql.bind(projectId)} AND trace_id = ${sql.bind(traceId)} ORDER BY created_at, id`,
    sql.params,
  );
  return rows.map(scoreFromRow);
}

/** For each of these traces with scores: the latest value of each score name (by createdAt, then id), as summaries show it. */
export async function selectLatestScores(manager: EntityManager, projectId: string, traceIds: readonly string[]): Promise<Map<string, Record<string, number | string | null>>> {
  const latest = new Map<string, Record<string, number | string | null>>();
  if (!traceIds.length) return latest;
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Array<{ trace_id: string; name: string; value: unknown; string_value: string | null }> = await manager.query(
    `SELECT trace_id, name, value, string_value FROM scores WHERE project_id = ${sql.bind(projectId)} AND trace_id IN (${sql.bindAll(traceIds)})
       ORDER BY trace_id, name, created_at, id`,
    sql.params,
  );
  // Oldest first, so the last one of each name stays.
  for (const row of rows) {
    const scores = latest.get(row.trace_id) ?? {};
    scores[row.name] = summaryValue({ value: numberOrNull(row.value), stringValue: row.string_value });
    latest.set(row.trace_id, scores);
  }
  return latest;
}

/** A page of the project's scores, newest first, `rows` of them from after `after`. */
export async function selectScorePage(manager: EntityManager, projectId: string, filters: ScoreListFilters, after: ScoreListKey | undefined, rows: number): Promise<StoredScore[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const where = [`project_id = ${sql.bind(projectId)}`];
  const equal = { traceId: 'trace_id', spanId: 'span_id', name: 'name', source: 'source', configId: 'config_id' } as const;
  for (const [filter, column] of Object.entries(equal)) {
    const value = filters[filter as keyof typeof equal];
    if (value !== undefined) where.push(`${column} = ${sql.bind(value)}`);
  }
  // The gateway sends checked ISO times; createdAt is kept to the millisecond.
  if (filters.from !== undefined) where.push(`created_at >= ${sql.bind(Math.ceil(toEpochMs(filters.from) ?? Date.parse(filters.from)))}`);
  if (filters.to !== undefined) where.push(`created_at < ${sql.bind(Math.ceil(toEpochMs(filters.to) ?? Date.parse(filters.to)))}`);
  if (after) where.push(`(created_at, id) < (${sql.bind(after[0])}, ${sql.bind(after[1])})`);
  const found: Row[] = await manager.query(
    `SELECT ${SCORE_COLUMNS} FROM scores WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${sql.bind(rows)}`,
    sql.params,
  );
  return found.map(scoreFromRow);
}

/** Deletes the project's score of this id; answers whether there was one. */
export async function deleteScore(manager: EntityManager, projectId: string, id: string): Promise<boolean> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows = returned(await manager.query(`DELETE FROM scores WHERE project_id = ${sql.bind(projectId)} AND id = ${sql.bind(id)} RETURNING id`, sql.params));
  return rows.length > 0;
}

/**
 * Deletes the scores of these traces: what deleting a trace runs in its own transaction, so a
 * trace and its scores go together (no route deletes traces yet; retention will).
 */
export async function deleteScoresOfTraces(manager: EntityManager, projectId: string, traceIds: readonly string[]): Promise<void> {
  if (!traceIds.length) return;
  const sql = new SqlBuilder(dialectOf(manager));
  await manager.query(`DELETE FROM scores WHERE project_id = ${sql.bind(projectId)} AND trace_id IN (${sql.bindAll(traceIds)})`, sql.params);
}

/** A score config as stored. */
export interface StoredScoreConfig extends ConfigRule {
  description: string | null;
  archived: boolean;
  createdAt: number;
  updatedAt: number;
}

const CONFIG_COLUMNS = 'id, name, data_type, min_value, max_value, categories, description, archived, created_at, updated_at';

const configFromRow = (r: Row): StoredScoreConfig => ({
  id: r.id as string,
  name: r.name as string,
  dataType: r.data_type as ScoreDataType,
  min: numberOrNull(r.min_value),
  max: numberOrNull(r.max_value),
  categories: r.categories === null || r.categories === undefined ? null : (JSON.parse(r.categories as string) as StoredScoreConfig['categories']),
  description: (r.description as string | null) ?? null,
  archived: Number(r.archived) === 1 || r.archived === true,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export const scoreConfigView = (c: StoredScoreConfig): ScoreConfigView => ({
  id: c.id,
  name: c.name,
  dataType: c.dataType,
  min: c.min,
  max: c.max,
  categories: c.categories,
  description: c.description,
  archived: c.archived,
  createdAt: isoTime(c.createdAt),
  updatedAt: isoTime(c.updatedAt),
});

/** Inserts the config; a name the project holds already is a unique violation (the caller's 409). */
export async function insertScoreConfig(manager: EntityManager, projectId: string, c: StoredScoreConfig): Promise<void> {
  const sql = new SqlBuilder(dialectOf(manager));
  await manager.query(
    `INSERT INTO score_configs (project_id, ${CONFIG_COLUMNS}) VALUES (${sql.bindAll([projectId, c.id, c.name, c.dataType])},
       ${sql.bindAs(c.min, 'double precision')}, ${sql.bindAs(c.max, 'double precision')},
       ${sql.bindAll([c.categories === null ? null : JSON.stringify(c.categories), c.description, c.archived ? 1 : 0, c.createdAt, c.updatedAt])})`,
    sql.params,
  );
}

export async function countScoreConfigs(manager: EntityManager, projectId: string): Promise<number> {
  const sql = new SqlBuilder(dialectOf(manager));
  const [row]: Array<{ n: unknown }> = await manager.query(`SELECT count(*) AS n FROM score_configs WHERE project_id = ${sql.bind(projectId)}`, sql.params);
  return Number(row.n);
}

/** The project's configs of these ids, archived or not (a score naming one by id is checked by it). */
export async function selectScoreConfigs(manager: EntityManager, projectId: string, ids: readonly string[]): Promise<Map<string, StoredScoreConfig>> {
  if (!ids.length) return new Map();
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Row[] = await manager.query(`SELECT ${CONFIG_COLUMNS} FROM score_configs WHERE project_id = ${sql.bind(projectId)} AND id IN (${sql.bindAll(ids)})`, sql.params);
  return new Map(rows.map((r) => [r.id as string, configFromRow(r)]));
}

/** The configs of these names that are not archived: the ones that check a score by its name. */
export async function selectLiveConfigsByName(manager: EntityManager, projectId: string, names: readonly string[]): Promise<Map<string, StoredScoreConfig>> {
  if (!names.length) return new Map();
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: Row[] = await manager.query(
    `SELECT ${CONFIG_COLUMNS} FROM score_configs WHERE project_id = ${sql.bind(projectId)} AND archived = 0 AND name IN (${sql.bindAll(names)})`,
    sql.params,
  );
  return new Map(rows.map((r) => [r.name as string, configFromRow(r)]));
}

/** A page of the project's configs by id (ids are time-sortable: oldest first), `rows` of them from after `after`. */
export async function selectScoreConfigPage(manager: EntityManager, projectId: string, after: string | undefined, rows: number): Promise<StoredScoreConfig[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const where = [`project_id = ${sql.bind(projectId)}`];
  if (after !== undefined) where.push(`id > ${sql.bind(after)}`);
  const found: Row[] = await manager.query(`SELECT ${CONFIG_COLUMNS} FROM score_configs WHERE ${where.join(' AND ')} ORDER BY id LIMIT ${sql.bind(rows)}`, sql.params);
  return found.map(configFromRow);
}

/** Sets the description and archived flag it is given; answers the config as it now stands, or undefined when the project has none of that id. */
export async function updateScoreConfig(
  manager: EntityManager,
  projectId: string,
  id: string,
  change: { description?: string | null; archived?: boolean },
  now: number,
): Promise<StoredScoreConfig | undefined> {
  const sql = new SqlBuilder(dialectOf(manager));
  const sets = [`updated_at = ${sql.bind(now)}`];
  if (change.description !== undefined) sets.push(`description = ${sql.bind(change.description)}`);
  if (change.archived !== undefined) sets.push(`archived = ${sql.bind(change.archived ? 1 : 0)}`);
  const rows = returned(
    await manager.query(`UPDATE score_configs SET ${sets.join(', ')} WHERE project_id = ${sql.bind(projectId)} AND id = ${sql.bind(id)} RETURNING ${CONFIG_COLUMNS}`, sql.params),
  );
  return rows[0] ? configFromRow(rows[0]) : undefined;
}
