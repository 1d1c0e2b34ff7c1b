import type { BenchmarkSecretReferences, EvaluationRunFact, GateBenchmarkFact } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import { toRunScores } from '../runs/run.views';
import { benchmarksById, completedPromptRunsById, datasetItemsAt, datasetsById, secretsOfBenchmarks } from '../store/fact-subjects.queries';

// What is sent for a fact of the outbox: its subject's state when it is sent (a later change
// queued another fact, so the newest state always follows).

/** The benchmarks as a gate sees them (an id no longer stored has nothing to say). */
export async function gateBenchmarkFacts(manager: EntityManager, ids: readonly string[]): Promise<GateBenchmarkFact[]> {
  const benchmarks = await benchmarksById(manager, ids);
  const datasets = new Map((await datasetsById(manager, [...new Set(benchmarks.map((b) => b.datasetId))])).map((d) => [d.id, d]));
  return benchmarks.map((b) => ({
    id: b.id,
    projectId: b.projectId,
    scorers: b.scorers.map((s) => s.name),
    datasetId: b.datasetId,
    datasetVersion: datasets.get(b.datasetId)?.version ?? null,
    deleted: b.deletedAt !== null,
  }));
}

/** The completed runs among `ids` that rendered a prompt. */
export async function evaluationRunFacts(manager: EntityManager, ids: readonly string[]): Promise<EvaluationRunFact[]> {
  const runs = await completedPromptRunsById(manager, ids);
  const facts: EvaluationRunFact[] = [];
  for (const run of runs) {
    if (run.promptId === null || run.promptVersion === null || run.finishedAt === null) continue;
    facts.push({
      id: run.id,
      projectId: run.projectId,
      benchmarkId: run.benchmarkId,
      promptId: run.promptId,
      promptVersion: run.promptVersion,
      datasetId: run.datasetId,
      datasetVersion: run.datasetVersion,
      items: run.total,
      datasetItems: await datasetItemsAt(manager, run.datasetId, run.datasetVersion),
      finishedAt: run.finishedAt,
      scores: toRunScores(run),
    });
  }
  return facts;
}

/** The secret names of the benchmarks that name any. */
export async function secretReferenceFacts(manager: EntityManager, ids: readonly string[]): Promise<BenchmarkSecretReferences[]> {
  const secrets = await secretsOfBenchmarks(manager, ids);
  if (!secrets.length) return [];
  const deleted = new Map((await benchmarksById(manager, ids)).map((b) => [b.id, b.deletedAt !== null]));
  const byBenchmark = new Map<string, BenchmarkSecretReferences>();
  for (const { benchmarkId, orgId, secretName } of secrets) {
    const entry = byBenchmark.get(benchmarkId) ?? { benchmarkId, orgId, names: [], deleted: deleted.get(benchmarkId) ?? true };
    entry.names.push(secretName);
    byBenchmark.set(benchmarkId, entry);
  }
  return [...byBenchmark.values()];
}
