import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, openServiceDataSource, ServiceDataSourceSpec } from './data-source.factory';

/** One DataSource per service (each app is its own Nest application, in either run mode). */
@Module({})
export class PersistenceModule {
  static forService(spec: ServiceDataSourceSpec): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          // openServiceDataSource retries by itself, logging without stack traces.
          useFactory: () => ({ ...dataSourceOptions(spec), retryAttempts: 0, toRetry: () => false }),
          dataSourceFactory: () => openServiceDataSource(spec),
        }),
      ],
      exports: [TypeOrmModule],
    };
  }
}
