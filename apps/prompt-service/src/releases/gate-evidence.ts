import { ProjectContext, RunCoverage, RUNS_OF_PROMPT_MAX } from '@cinetrace/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { findGateBenchmark, type GateRun, newestUncountedGateRun, wholeGateRuns } from '../store/gate-evidence.queries';

/** What a gate is judged by: the benchmark's scorers and dataset, the runs that count, the newest that did not. */
export interface GateEvidence {
  scorers: string[];
  /** The benchmark's dataset as it is now (null: it was deleted): the version a new gate counts. */
  dataset: { id: string; version: number } | null;
  /** Newest first, at most RUNS_OF_PROMPT_MAX. */
  runs: GateRun[];
  uncounted: RunCoverage | null;
}

/**
 * A gate's evidence from prompt-service's own copy of benchmark-service's facts
 * (gate_benchmarks, gate_runs): judging a gate asks no other service. A run completed a
 * moment ago may not be told yet; the gate then refuses as if it had not run.
 */
@Injectable()
export class GateEvidenceReader {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * null when the benchmark is not a live one of the caller's project. `datasetVersion`: the
   * dataset version whose whole runs count (absent: the dataset's version now).
   */
  async ofPrompt(ctx: ProjectContext, benchmarkId: string, promptId: string, promptVersion: number, datasetVersion?: number): Promise<GateEvidence | null> {
    const manager = this.dataSource.manager;
    const benchmark = await findGateBenchmark(manager, ctx.projectId, benchmarkId);
    if (!benchmark) return null;
    if (benchmark.datasetVersion === null) return { scorers: benchmark.scorers, dataset: null, runs: [], uncounted: null };
    const counted = { id: benchmark.datasetId, version: datasetVersion ?? benchmark.datasetVersion };
    const of = { projectId: ctx.projectId, benchmarkId, promptId, promptVersion };
    const [runs, uncounted] = await Promise.all([wholeGateRuns(manager, of, counted, RUNS_OF_PROMPT_MAX), newestUncountedGateRun(manager, of, counted)]);
    return {
      scorers: benchmark.scorers,
      dataset: { id: benchmark.datasetId, version: benchmark.datasetVersion },
      runs,
      uncounted: uncounted && { id: uncounted.id, datasetVersion: uncounted.datasetVersion, items: uncounted.items, datasetItems: uncounted.datasetItems },
    };
  }
}
