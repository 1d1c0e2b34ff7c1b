import { openServiceDataSource } from '@cinetrace/persistence';
import { createDatabase, type TestDatabase } from '@cinetrace/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchmarkServiceEnv } from '../benchmark-service.env';
import { benchmarkServiceStore } from '../benchmark-service.module';
import { Run } from '../store/run.entity';
import { benchmarkServiceMigrations } from './index';

// Runs started before the prompt had columns of its own must count for a release's gate:
// the migration fills the columns from the prompt each run's plan recorded.
describe.each(['postgres', 'sqlite'] as const)('AddRunPrompt on %s', (store) => {
  let database: TestDatabase | undefined;
  let dataDir: string;
  let env: BenchmarkServiceEnv;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'add-run-prompt-'));
    if (store === 'postgres') database = await createDatabase();
    env = { DATABASE_URL: database?.url, DATA_DIR: dataDir, MIGRATE_ON_START: true } as BenchmarkServiceEnv;
  }, 60_000);

  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("fills prompt_id and prompt_version from each run's plan, and leaves runs without a prompt empty", async () => {
    const earlier = benchmarkServiceMigrations.filter((m) => m.name !== 'AddRunPrompt1764300000000');
    const before = await openServiceDataSource({ ...benchmarkServiceStore(env), entities: [], migrations: earlier }, 1);
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
