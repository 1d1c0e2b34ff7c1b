import type { EvaluationRunFact, GateBenchmarkFact } from '@cinetrace/contracts';
import { dialectOf, SqlBuilder } from '@cinetrace/persistence';
import type { EntityManager } from 'typeorm';

// gate_benchmarks and gate_runs (migration RecordEvaluations): benchmark-service's facts, as
// told; a fact told twice, or late, changes nothing it should not.

export interface GateBenchmark {
  id: string;
  scorers: string[];
  datasetId: string;
  /** null: its dataset is gone. */
  datasetVersion: number | null;
}

export type GateRun = Omit<EvaluationRunFact, 'projectId' | 'benchmarkId' | 'promptId' | 'promptVersion'>;

/**
 * Keeps the furthest state told: a deletion is final, a dataset gone stays gone, else the
 * higher dataset version wins. So facts may arrive in any order, and any number of times.
 */
export async function recordGateBenchmarks(tx: EntityManager, facts: readonly GateBenchmarkFact[]): Promise<void> {
  const greatest = dialectOf(tx) === 'postgres' ? 'GREATEST' : 'MAX';
  for (const fact of facts) {
    const sql = new SqlBuilder(dialectOf(tx));
    const values = sql.bindAll([fact.id, fact.projectId, JSON.stringify(fact.scorers), fact.datasetId]);
    await tx.query(
      `INSERT INTO gate_benchmarks (id, project_id, scorers, dataset_id, dataset_version, deleted)
       VALUES (${values}, ${sql.bindAs(fact.datasetVersion, 'integer')}, ${sql.bindAs(fact.deleted ? 1 : 0, 'smallint')})
       ON CONFLICT (id) DO UPDATE SET
         deleted = ${greatest}(gate_benchmarks.deleted, excluded.deleted),
         dataset_version = CASE WHEN gate_benchmarks.dataset_version IS NULL OR excluded.dataset_version IS NULL THEN NULL
                                ELSE ${greatest}(gate_benchmarks.dataset_version, excluded.dataset_version) END`,
      sql.params,
    );
  }
}

/** A run is fixed once completed: the first telling stands. */
export async function recordGateRuns(tx: EntityManager, facts: readonly EvaluationRunFact[]): Promise<void> {
  for (const f of facts) {
    const sql = new SqlBuilder(dialectOf(tx));
    const values = sql.bindAll([
      f.id,
      f.projectId,
      f.benchmarkId,
      f.promptId,
      f.promptVersion,
      f.datasetId,
      f.datasetVersion,
      f.items,
      f.datasetItems,
      f.finishedAt,
      JSON.stringify(f.scores),
    ]);
    await tx.query(
      `INSERT INTO gate_runs (id, project_id, benchmark_id, prompt_id, prompt_version, dataset_id, dataset_version, items, dataset_items, finished_at, scores)
       VALUES (${values}) ON CONFLICT (id) DO NOTHING`,
      sql.params,
    );
  }
}

/** A live benchmark of the project, or null. */
export async function findGateBenchmark(manager: EntityManager, projectId: string, id: string): Promise<GateBenchmark | null> {
  const sql = new SqlBuilder(dialectOf(manager));
  const [row]: Array<{ id: string; scorers: string; dataset_id: string; dataset_version: number | string | null }> = await manager.query(
    `SELECT id, scorers, dataset_id, dataset_version FROM gate_benchmarks WHERE id = ${sql.bind(id)} AND project_id = ${sql.bind(projectId)} AND deleted = 0`,
    sql.params,
  );
  if (!row) return null;
  return { id: row.id, scorers: JSON.parse(row.scorers) as string[], datasetId: row.dataset_id, datasetVersion: row.dataset_version === null ? null : Number(row.dataset_version) };
}

export interface RunsOfPromptVersion {
  projectId: string;
  benchmarkId: string;
  promptId: string;
  promptVersion: number;
}

/** The runs over every item of the dataset at `datasetVersion`, newest first: the runs a gate counts. */
export async function wholeGateRuns(manager: EntityManager, of: RunsOfPromptVersion, dataset: { id: string; version: number }, limit: number): Promise<GateRun[]> {
  const sql = new SqlBuilder(dialectOf(manager));
  const rows: RunRow[] = await manager.query(
    `SELECT ${RUN_COLUMNS} FROM gate_runs WHERE ${ofPromptVersion(sql, of)}
       AND dataset_id = ${sql.bind(dataset.id)} AND dataset_version = ${sql.bind(dataset.version)} AND items = dataset_items
     ORDER BY id DESC LIMIT ${sql.bind(limit)}`,
    sql.params,
  );
  return rows.map(toGateRun);
}

/** The newest run that does not count (a subset, or another dataset version), or null: so a refusal can say why. */
export async function newestUncountedGateRun(manager: EntityManager, of: RunsOfPromptVersion, dataset: { id: string; version: number }): Promise<GateRun | null> {
  const sql = new SqlBuilder(dialectOf(manager));
  const [row]: RunRow[] = await manager.query(
    `SELECT ${RUN_COLUMNS} FROM gate_runs WHERE ${ofPromptVersion(sql, of)}
       AND NOT (dataset_id = ${sql.bind(dataset.id)} AND dataset_version = ${sql.bind(dataset.version)} AND items = dataset_items)
     ORDER BY id DESC LIMIT 1`,
    sql.params,
  );
  return row ? toGateRun(row) : null;
}

const RUN_COLUMNS = 'id, dataset_id, dataset_version, items, dataset_items, finished_at, scores';

interface RunRow {
  id: string;
  dataset_id: string;
  dataset_version: number | string;
  items: number | string;
  dataset_items: number | string;
  finished_at: number | string;
  scores: string;
}

const ofPromptVersion = (sql: SqlBuilder, of: RunsOfPromptVersion) =>
  `benchmark_id = ${sql.bind(of.benchmarkId)} AND prompt_id = ${sql.bind(of.promptId)} AND prompt_version = ${sql.bind(of.promptVersion)} AND project_id = ${sql.bind(of.projectId)}`;

const toGateRun = (row: RunRow): GateRun => ({
  id: row.id,
  datasetId: row.dataset_id,
  datasetVersion: Number(row.dataset_version),
  items: Number(row.items),
  datasetItems: Number(row.dataset_items),
  finishedAt: Number(row.finished_at),
  scores: JSON.parse(row.scores) as GateRun['scores'],
});
