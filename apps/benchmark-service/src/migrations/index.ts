import { CreateDatasets1763884800000 } from './1763884800000-CreateDatasets';
import { CreateBenchmarks1763888400000 } from './1763888400000-CreateBenchmarks';
import { CreateRuns1763971200000 } from './1763971200000-CreateRuns';
import { IndexTasksInFlight1764057600000 } from './1764057600000-IndexTasksInFlight';
import { CreateBenchmarkSecrets1764100000000 } from './1764100000000-CreateBenchmarkSecrets';
import { AddRunPrompt1764300000000 } from './1764300000000-AddRunPrompt';
import { CreateRunMedia1764800000000 } from './1764800000000-CreateRunMedia';
import { HandOverThrough1765000000000 } from './1765000000000-HandOverThrough';
import { QueueFacts1766200000000 } from './1766200000000-QueueFacts';

/** In order of their timestamps. */
export const benchmarkServiceMigrations = [
  CreateDatasets1763884800000,
  CreateBenchmarks1763888400000,
  CreateRuns1763971200000,
  IndexTasksInFlight1764057600000,
  CreateBenchmarkSecrets1764100000000,
  AddRunPrompt1764300000000,
  CreateRunMedia1764800000000,
  HandOverThrough1765000000000,
  QueueFacts1766200000000,
];
