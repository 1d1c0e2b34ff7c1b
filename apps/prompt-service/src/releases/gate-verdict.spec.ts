import { ErrorCode } from '@cinetrace/contracts';
import { gateFailed, judgeGate } from './gate-verdict';

/** A run over all 4 items of dataset version 1 unless told otherwise. */
const run = (id: string, means: Record<string, number | null>, coverage: { datasetVersion?: number; items?: number } = {}) => ({
  id,
  datasetVersion: coverage.datasetVersion ?? 1,
  items: coverage.items ?? 4,
  datasetItems: 4,
  finishedAt: null,
  scores: Object.fromEntries(Object.entries(means).map(([name, mean]) => [name, { mean, passRate: null }])),
});

describe('judgeGate', () => {
  it('fails without a run, naming none', () => {
    expect(judgeGate({ exact: 0.5 }, 1, [])).toEqual({ passed: false, runId: null, shortfalls: [], uncounted: null });
  });

  it('passes on any run meeting every threshold (at the threshold counts), newest first', () => {
    expect(judgeGate({ exact: 0.5, sim: 0.7 }, 1, [run('run_2', { exact: 0.4, sim: 0.9 }), run('run_1', { exact: 0.5, sim: 0.7 })])).toEqual({ passed: true, runId: 'run_1' });
  });

  it("fails with the newest run's shortfalls; a scorer without a mean falls short", () => {
    expect(judgeGate({ exact: 0.5, sim: 0.7 }, 1, [run('run_2', { exact: 0.25, sim: null }), run('run_1', { exact: 0 })])).toEqual({
      passed: false,
      runId: 'run_2',
      shortfalls: [
        { scorer: 'exact', mean: 0.25, threshold: 0.5 },
        { scorer: 'sim', mean: null, threshold: 0.7 },
      ],
    });
  });

  it('never counts a run over part of the dataset, or over another version of it, however well it scored', () => {
    const subset = run('run_3', { exact: 1 }, { items: 1 });
    const otherVersion = run('run_4', { exact: 1 }, { datasetVersion: 2 });
    expect(judgeGate({ exact: 0.5 }, 1, [subset])).toEqual({ passed: false, runId: null, shortfalls: [], uncounted: subset });
    expect(judgeGate({ exact: 0.5 }, 1, [otherVersion])).toEqual({ passed: false, runId: null, shortfalls: [], uncounted: otherVersion });
    expect(judgeGate({ exact: 0.5 }, 1, [subset, run('run_1', { exact: 0.5 })])).toEqual({ passed: true, runId: 'run_1' });
  });
});

describe('gateFailed', () => {
  const gate = { benchmarkId: 'bm_1', thresholds: { exact: 0.5 }, datasetVersion: 1 };

  it('names the run, the scorer and its mean', () => {
    const error = gateFailed('production', 3, gate, 1, { passed: false, runId: 'run_2', shortfalls: [{ scorer: 'exact', mean: 0.25, threshold: 0.5 }] });
    expect(error.code).toBe(ErrorCode.GateFailed);
    expect(error.detail).toBe("Release 'production' cannot point at version 3: run 'run_2' of benchmark 'bm_1' fell short (exact 0.25 < 0.5)");
    expect(error.errors).toEqual([{ path: 'gate.thresholds.exact', message: "run 'run_2' scored a mean of 0.25, below 0.5" }]);
  });

  it('says when no run exists', () => {
    const error = gateFailed('production', 3, gate, 1, { passed: false, runId: null, shortfalls: [] });
    expect(error.errors).toEqual([{ path: 'version', message: "no completed run of benchmark 'bm_1' over its whole dataset (version 1) rendered this prompt at version 3" }]);
  });

  it('says why a run did not count: a subset, or another dataset version', () => {
    const subset = gateFailed('production', 3, gate, 1, { passed: false, runId: null, shortfalls: [], uncounted: { id: 'run_5', datasetVersion: 1, items: 1, datasetItems: 4 } });
    expect(subset.detail).toContain("run 'run_5' ran 1 of the dataset's 4 items (a rowSubset), and the gate counts only runs over every item");
    const later = gateFailed('production', 3, gate, 1, { passed: false, runId: null, shortfalls: [], uncounted: { id: 'run_6', datasetVersion: 2, items: 5, datasetItems: 5 } });
    expect(later.errors?.[0].message).toContain("run 'run_6' ran over version 2 of the dataset, and the gate counts only runs over version 1");
  });
});
