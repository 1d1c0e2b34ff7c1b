import { openServiceDataSource } from '@cinetrace/persistence';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { Run } from '../store/run.entity';
import { openWithout, useMigrationStore } from './migration-store.fixtures';

// A run under way when the service is upgraded keeps its window: its mark becomes its
// highest open task that was handed over, so those still count in flight and the rest wait.
describe.each(['postgres', 'sqlite'] as const)('HandOverThrough on %s', (store) => {
  const envOf = useMigrationStore(store, 'hand-over-through');

  it('marks each active run through its highest open task handed over, and ended runs and runs with none at -1', async () => {
    const env = envOf();
    const before = await openWithout(env, 'HandOverThrough1765000000000');
    for (const [id, active] of [
      ['run_a', 'bm_a'],
      ['run_b', 'bm_b'],
      ['run_c', null],
    ] as const) {
      await before.query(
        `INSERT INTO runs (id, project_id, benchmark_id, active_benchmark_id, status, experiment, runner, plan, dataset_id, dataset_version, total, pending, running, completed, failed, cancelled, score_totals, created_at)
         VALUES ('${id}', 'prj_1', '${active ?? 'bm_c'}', ${active ? `'${active}'` : 'NULL'}, '${active ? 'running' : 'completed'}', '{}', '{}', '{}', 'ds_1', 1, 0, 0, 0, 0, 0, 0, '{}', 1)`,
      );
    }
    // run_a: 0 and 1 done, 2 running, 3 handed over and pending, 4 and 5 waiting. run_b: none handed over. run_c: ended.
    const tasks: Array<[run: string, index: number, status: string, dispatched: boolean]> = [
      ['run_a', 0, 'completed', true],
      ['run_a', 1, 'failed', true],
      ['run_a', 2, 'running', true],
      ['run_a', 3, 'pending', true],
      ['run_a', 4, 'pending', false],
      ['run_a', 5, 'pending', false],
      ['run_b', 0, 'pending', false],
      ['run_c', 0, 'completed', true],
    ];
    for (const [run, index, status, dispatched] of tasks) {
      await before.query(
        `INSERT INTO tasks (id, run_id, project_id, item_id, item_index, status, attempts, input, metadata, scores, trace_id, dispatched_at)
         VALUES ('${run}_${index}', '${run}', 'prj_1', 'item_${index}', ${index}, '${status}', 0, '{}', '{}', '[]', 'trace_${run}_${index}', ${dispatched ? 1 : 'NULL'})`,
      );
    }
    await before.destroy();

    const after = await openServiceDataSource(benchmarkServiceStore(env), 1);
    try {
      const marks = Object.fromEntries((await after.getRepository(Run).find()).map((run) => [run.id, run.handedOverThrough]));
      expect(marks).toEqual({ run_a: 3, run_b: -1, run_c: -1 });
    } finally {
      await after.destroy();
    }
  });
});
