import { ErrorCode } from '@cinetrace/contracts';
import { gateFailed, judgeGate } from './gate-verdict';

const run = (id: string, means: Record<string, number | null>) => ({
  id,
  finishedAt: null,
  scores: Object.fromEntries(Object.entries(means).map(([name, mean]) => [name, { mean, passRate: null }])),
});

describe('judgeGate', () => {
  it('fails without a run, naming none', () => {
    expect(judgeGate({ exact: 0.5 }, [])).toEqual({ passed: false, runId: null, shortfalls: [] });
  });

  it('passes on any run meeting every threshold (at the threshold counts), newest first', () => {
    expect(judgeGate({ exact: 0.5, sim: 0.7 }, [run('run_2', { exact: 0.4, sim: 0.9 }), run('run_1', { exact: 0.5, sim: 0.7 })])).toEqual({ passed: true, runId: 'run_1' });
  });

  it("fails with the newest run's shortfalls; a scorer without a mean falls short", () => {
    expect(judgeGate({ exact: 0.5, sim: 0.7 }, [run('run_2', { exact: 0.25, sim: null }), run('run_1', { exact: 0 })])).toEqual({
      passed: false,
      runId: 'run_2',
      shortfalls: [
        { scorer: 'exact', mean: 0.25, threshold: 0.5 },
        { scorer: 'sim', mean: null, threshold: 0.7 },
      ],
    });
  });
});

describe('gateFailed', () => {
  const gate = { benchmarkId: 'bm_1', thresholds: { exact: 0.5 } };

  it('names the run, the scorer and its mean', () => {
    const error = gateFailed('production', 3, gate, { passed: false, runId: 'run_2', shortfalls: [{ scorer: 'exact', mean: 0.25, threshold: 0.5 }] });
    expect(error.code).toBe(ErrorCode.GateFailed);
    expect(error.detail).toBe("Release 'production' cannot point at version 3: run 'run_2' of benchmark 'bm_1' fell short (exact 0.25 < 0.5)");
    expect(error.errors).toEqual([{ path: 'gate.thresholds.exact', message: "run 'run_2' scored a mean of 0.25, below 0.5" }]);
  });

  it('says when no run exists', () => {
    const error = gateFailed('production', 3, gate, { passed: false, runId: null, shortfalls: [] });
    expect(error.errors).toEqual([{ path: 'version', message: "no completed run of benchmark 'bm_1' rendered this prompt at version 3" }]);
  });
});
