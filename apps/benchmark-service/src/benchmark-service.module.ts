import { BusClientConfig, BusModule, pingController, SERVICE_CHECKS } from '@cinetrace/bus';
import { Patterns, ServiceNames } from '@cinetrace/contracts';
import { LoggingModule } from '@cinetrace/logging';
import { PersistenceModule, serviceStore, type ServiceDataSourceSpec } from '@cinetrace/persistence';
import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { BenchmarkServiceEnv } from './benchmark-service.env';
import { BenchmarkSecret } from './store/benchmark-secret.entity';
import { Benchmark } from './store/benchmark.entity';
import { BenchmarksBusController } from './benchmarks/benchmarks.bus-controller';
import { BenchmarksService } from './benchmarks/benchmarks.service';
import { SchemaThreads } from './benchmarks/schema-compiler';
import { DatasetItem } from './store/dataset-item.entity';
import { Dataset } from './store/dataset.entity';
import { DatasetsBusController } from './datasets/datasets.bus-controller';
import { DatasetsService } from './datasets/datasets.service';
import { TaskDispatcher } from './execution/task-dispatcher';
import { FactRelay } from './facts/fact-relay';
import { TaskEventsSource, taskEventsSubscription } from './execution/task-events.subscription';
import { TaskQueue } from './execution/task-queue';
import { benchmarkServiceMigrations } from './migrations';
import { PromptSource } from './runs/prompt-source';
import { RunAnnotations } from './runs/run-annotations';
import { Run } from './store/run.entity';
import { RunMedia } from './store/run-media.entity';
import { RunsBusController } from './runs/runs.bus-controller';
import { RunsService } from './runs/runs.service';
import { TaskEventsHandler } from './runs/task-events.handler';
import { Task } from './store/task.entity';

export const BENCHMARK_SERVICE = ServiceNames.BenchmarkService;
const entities = [Dataset, DatasetItem, Benchmark, BenchmarkSecret, Run, Task, RunMedia];

/** How runs execute in this mode: where tasks go, where their events come back from, how prompts are asked for. */
export interface BenchmarkExecution {
  queue: TaskQueue;
  events: TaskEventsSource;
  bus: BusClientConfig;
}

/** Datasets, benchmarks, runs and tasks; answers on the bus in either run mode and drives run execution. */
@Module({})
export class BenchmarkServiceModule {
  static register(env: BenchmarkServiceEnv, execution: BenchmarkExecution): DynamicModule {
    return {
      module: BenchmarkServiceModule,
      imports: [
        LoggingModule.forApp(BENCHMARK_SERVICE, env.LOG_LEVEL),
        PersistenceModule.forService(benchmarkServiceStore(env)),
        TypeOrmModule.forFeature(entities),
        BusModule.forClient(execution.bus),
      ],
      controllers: [pingController(Patterns.BenchmarkPing), DatasetsBusController, BenchmarksBusController, RunsBusController],
      providers: [
        { provide: BenchmarkServiceEnv, useValue: env },
        { provide: TaskQueue, useValue: execution.queue },
        // The gateway's /readyz learns from benchmark-service's ping whether the task queue answers.
        { provide: SERVICE_CHECKS, useValue: { queue: () => execution.queue.isReachable() } },
        DatasetsService,
        BenchmarksService,
        SchemaThreads,
        RunsService,
        PromptSource,
        RunAnnotations,
        TaskDispatcher,
        TaskEventsHandler,
        FactRelay,
        taskEventsSubscription(execution.events),
      ],
    };
  }
}

/** Where benchmark-service keeps its data, as its module and its migration step (migrate.ts) open it. */
export const benchmarkServiceStore = (env: BenchmarkServiceEnv): ServiceDataSourceSpec =>
  serviceStore(BENCHMARK_SERVICE, env, { entities, migrations: benchmarkServiceMigrations });
