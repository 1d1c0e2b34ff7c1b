import { DomainError, ErrorCode, FieldError, ReleaseGateView, RunsOfPromptReply } from '@cinetrace/contracts';

type GateRun = RunsOfPromptReply['runs'][number];

export interface Shortfall {
  scorer: string;
  mean: number | null;
  threshold: number;
}

/** Whether a version passed a gate: by the first of its runs that meets every threshold, else by the newest run's shortfalls. */
export type GateVerdict = { passed: true; runId: string } | { passed: false; runId: string | null; shortfalls: Shortfall[] };

/** `runs` newest first, as benchmark-service answers them. Any passing run is enough: a later weaker run does not undo it. */
export function judgeGate(thresholds: Record<string, number>, runs: GateRun[]): GateVerdict {
  for (const run of runs) {
    if (shortfallsOf(thresholds, run).length === 0) return { passed: true, runId: run.id };
  }
  if (runs.length === 0) return { passed: false, runId: null, shortfalls: [] };
  return { passed: false, runId: runs[0].id, shortfalls: shortfallsOf(thresholds, runs[0]) };
}

function shortfallsOf(thresholds: Record<string, number>, run: GateRun): Shortfall[] {
  return Object.entries(thresholds).flatMap(([scorer, threshold]) => {
    const mean = run.scores[scorer]?.mean ?? null;
    return mean !== null && mean >= threshold ? [] : [{ scorer, mean, threshold }];
  });
}

/** The 409 a refused move answers: which run (or none) and each score that fell short. */
export function gateFailed(release: string, version: number, gate: ReleaseGateView, verdict: Exclude<GateVerdict, { passed: true }>): DomainError {
  const refused = `Release '${release}' cannot point at version ${version}`;
  if (verdict.runId === null) {
    const message = `no completed run of benchmark '${gate.benchmarkId}' rendered this prompt at version ${version}`;
    return new DomainError(ErrorCode.GateFailed, `${refused}: ${message}`, [{ path: 'version', message }]);
  }
  const errors: FieldError[] = verdict.shortfalls.map(({ scorer, mean, threshold }) => ({
    path: `gate.thresholds.${scorer}`,
    message: `run '${verdict.runId}' scored a mean of ${mean === null ? 'nothing' : round(mean)}, below ${threshold}`,
  }));
  const scores = verdict.shortfalls.map(({ scorer, mean, threshold }) => `${scorer} ${mean === null ? 'none' : round(mean)} < ${threshold}`);
  return new DomainError(ErrorCode.GateFailed, `${refused}: run '${verdict.runId}' of benchmark '${gate.benchmarkId}' fell short (${scores.join(', ')})`, errors);
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
