import { pingController } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { databaseTarget, PersistenceModule } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { Benchmark } from './benchmarks/benchmark.entity';
import { BenchmarksBusController } from './benchmarks/benchmarks.bus-controller';
import { BenchmarksService } from './benchmarks/benchmarks.service';
import { DatasetItem } from './datasets/dataset-item.entity';
import { Dataset } from './datasets/dataset.entity';
import { DatasetsBusController } from './datasets/datasets.bus-controller';
import { DatasetsService } from './datasets/datasets.service';
import { benchmarkServiceMigrations } from './migrations';

export const BENCHMARK_SERVICE = 'benchmark-service';
const entities = [Dataset, DatasetItem, Benchmark];

/** Datasets (and, with the benchmark runs, benchmarks, runs and tasks); answers on the bus in either run mode. */
@Module({})
export class BenchmarkServiceModule {
  static register(env: BenchmarkServiceEnv): DynamicModule {
    return {
      module: BenchmarkServiceModule,
      imports: [
        LoggingModule.forApp(BENCHMARK_SERVICE, env.LOG_LEVEL),
        PersistenceModule.forService({
          target: databaseTarget(BENCHMARK_SERVICE, { databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR }),
          entities,
          migrations: benchmarkServiceMigrations,
        }),
        TypeOrmModule.forFeature(entities),
      ],
      controllers: [pingController(Patterns.BenchmarkPing), DatasetsBusController, BenchmarksBusController],
      providers: [{ provide: BenchmarkServiceEnv, useValue: env }, DatasetsService, BenchmarksService],
    };
  }
}
