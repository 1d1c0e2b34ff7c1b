import { openServiceDataSource } from '@cinetrace/persistence';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { Run } from '../store/run.entity';
import { openWithout, useMigrationStore } from './migration-store.fixtures';

// Runs started before the prompt had columns of its own must count for a release's gate:
// the migration fills the columns from the prompt each run's plan recorded.
describe.each(['postgres', 'sqlite'] as const)('AddRunPrompt on %s', (store) => {
  const envOf = useMigrationStore(store, 'add-run-prompt');

  it("fills prompt_id and prompt_version from each run's plan, and leaves runs without a prompt empty", async () => {
    const env = envOf();
    const before = await openWithout(env, 'AddRunPrompt1764300000000');
    const plan = (prompt: unknown) => JSON.stringify({ target: { type: 'dataset' }, scorers: [], prompt }).replace(/'/g, "''");
    for (const [id, prompt] of [
      ['run_a', { id: 'prm_1', version: 3, content: 'x' }],
      ['run_b', null],
    ] as const) {
      await before.query(
        `INSERT INTO runs (id, project_id, benchmark_id, status, experiment, runner, plan, dataset_id, dataset_version, total, pending, running, completed, failed, cancelled, score_totals, created_at)
         VALUES ('${id}', 'prj_1', 'bm_1', 'completed', '{}', '{}', '${plan(prompt)}', 'ds_1', 1, 0, 0, 0, 0, 0, 0, '{}', 1)`,
      );
    }
    await before.destroy();

    const after = await openServiceDataSource(benchmarkServiceStore(env), 1);
    try {
      const runs = after.getRepository(Run);
      expect(await runs.findOneByOrFail({ id: 'run_a' })).toMatchObject({ promptId: 'prm_1', promptVersion: 3 });
      expect(await runs.findOneByOrFail({ id: 'run_b' })).toMatchObject({ promptId: null, promptVersion: null });
    } finally {
      await after.destroy();
    }
  });
});
