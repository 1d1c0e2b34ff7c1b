import { DomainError, ErrorCode, FieldError, ReleaseGateView, RunCoverage } from '@cinetrace/contracts';

/** A run as a gate reads it: which items it covered and its scorers' means. */
type GateRun = RunCoverage & { scores: Record<string, { mean: number | null }> };

export interface Shortfall {
  scorer: string;
  mean: number | null;
  threshold: number;
}

/**
 * Whether a version passed a gate: by the first of its counted runs that meets every threshold,
 * else by the newest counted run's shortfalls; without one, the newest run that did not count.
 */
export type GateVerdict = { passed: true; runId: string } | { passed: false; runId: string | null; shortfalls: Shortfall[]; uncounted?: RunCoverage | null };

/** Whether a run covered every item of the dataset at the version the gate counts. */
export const coversDataset = (run: RunCoverage, datasetVersion: number): boolean => run.datasetVersion === datasetVersion && run.items === run.datasetItems;

/**
 * `runs` newest first. Any passing run is enough: a later
 * weaker run does not undo it. Only runs over the whole dataset at `datasetVersion` count
 * (the evidence holds only those; checked again here, so a subset never passes).
 */
export function judgeGate(thresholds: Record<string, number>, datasetVersion: number, runs: GateRun[], uncounted: RunCoverage | null = null): GateVerdict {
  const counted = runs.filter((run) => coversDataset(run, datasetVersion));
  for (const run of counted) {
    if (shortfallsOf(thresholds, run).length === 0) return { passed: true, runId: run.id };
  }
  if (counted.length === 0) return { passed: false, runId: null, shortfalls: [], uncounted: runs.find((run) => !coversDataset(run, datasetVersion)) ?? uncounted };
  return { passed: false, runId: counted[0].id, shortfalls: shortfallsOf(thresholds, counted[0]) };
}

function shortfallsOf(thresholds: Record<string, number>, run: GateRun): Shortfall[] {
  return Object.entries(thresholds).flatMap(([scorer, threshold]) => {
    const mean = run.scores[scorer]?.mean ?? null;
    return mean !== null && mean >= threshold ? [] : [{ scorer, mean, threshold }];
  });
}

/** The 409 a refused move answers: which run (or none, and why a run did not count) and each score that fell short. */
export function gateFailed(
  release: string,
  version: number,
  gate: Pick<ReleaseGateView, 'benchmarkId'>,
  datasetVersion: number,
  verdict: Exclude<GateVerdict, { passed: true }>,
): DomainError {
  const refused = `Release '${release}' cannot point at version ${version}`;
  if (verdict.runId === null) {
    const none = `no completed run of benchmark '${gate.benchmarkId}' over its whole dataset (version ${datasetVersion}) rendered this prompt at version ${version}`;
    const message = verdict.uncounted ? `${none}; ${whyNotCounted(verdict.uncounted, datasetVersion)}` : none;
    return new DomainError(ErrorCode.GateFailed, `${refused}: ${message}`, [{ path: 'version', message }]);
  }
  const errors: FieldError[] = verdict.shortfalls.map(({ scorer, mean, threshold }) => ({
    path: `gate.thresholds.${scorer}`,
    message: `run '${verdict.runId}' scored a mean of ${mean === null ? 'nothing' : round(mean)}, below ${threshold}`,
  }));
  const scores = verdict.shortfalls.map(({ scorer, mean, threshold }) => `${scorer} ${mean === null ? 'none' : round(mean)} < ${threshold}`);
  return new DomainError(ErrorCode.GateFailed, `${refused}: run '${verdict.runId}' of benchmark '${gate.benchmarkId}' fell short (${scores.join(', ')})`, errors);
}

function whyNotCounted(run: RunCoverage, datasetVersion: number): string {
  if (run.datasetVersion !== datasetVersion) {
    return `run '${run.id}' ran over version ${run.datasetVersion} of the dataset, and the gate counts only runs over version ${datasetVersion}`;
  }
  return `run '${run.id}' ran ${run.items} of the dataset's ${run.datasetItems} items (a rowSubset), and the gate counts only runs over every item`;
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
