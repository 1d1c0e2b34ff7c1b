import { openServiceDataSource } from '@cinetrace/persistence';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { oldestFacts } from '../store/fact-outbox';
import { openWithout, useMigrationStore } from './migration-store.fixtures';

// An upgraded deployment's prompt-service and project-service start with empty copies: the
// migration queues what they must be told of what already exists, and nothing else.
describe.each(['postgres', 'sqlite'] as const)('QueueFacts on %s', (store) => {
  const envOf = useMigrationStore(store, 'queue-facts');

  it('queues the live benchmarks, the completed runs of prompts, and the secret names of live benchmarks', async () => {
    const env = envOf();
    const before = await openWithout(env, 'QueueFacts1766200000000');
    for (const [id, deletedAt] of [
      ['bm_live', 'NULL'],
      ['bm_gone', '5'],
    ]) {
      await before.query(
        `INSERT INTO benchmarks (id, project_id, name, description, dataset_id, scorers, target, runner, status, created_at, updated_at, deleted_at)
         VALUES ('${id}', 'prj_1', 'b', '', 'ds_1', '[]', '{}', '{}', 'idle', 1, 1, ${deletedAt})`,
      );
      await before.query(`INSERT INTO benchmark_secrets (benchmark_id, secret_name, org_id) VALUES ('${id}', 'MODEL_KEY', 'org_1')`);
    }
    for (const [id, status, promptId] of [
      ['run_a', 'completed', "'prm_1'"],
      ['run_b', 'completed', 'NULL'],
      ['run_c', 'failed', "'prm_1'"],
      ['run_d', 'running', "'prm_1'"],
    ]) {
      await before.query(
        `INSERT INTO runs (id, project_id, benchmark_id, status, experiment, runner, plan, prompt_id, prompt_version, dataset_id, dataset_version, total, pending, running, completed, failed, cancelled, score_totals, created_at)
         VALUES ('${id}', 'prj_1', 'bm_live', '${status}', '{}', '{}', '{}', ${promptId}, 1, 'ds_1', 1, 0, 0, 0, 0, 0, 0, '{}', 1)`,
      );
    }
    await before.destroy();

    const after = await openServiceDataSource(benchmarkServiceStore(env), 1);
    try {
      const queued = (await oldestFacts(after.manager, 100)).map(({ kind, subjectId }) => `${kind} ${subjectId}`);
      expect(queued.sort()).toEqual(['gate-benchmark bm_live', 'gate-run run_a', 'secret-references bm_live']);
    } finally {
      await after.destroy();
    }
  });
});
