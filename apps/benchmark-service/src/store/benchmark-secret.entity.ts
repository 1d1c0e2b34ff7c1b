import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A secret a benchmark names (by name, as references do), with the benchmark's organization:
 * what project-service is told (fact_outbox), to refuse deleting a secret still named. Written with the benchmark.
 */
@Entity('benchmark_secrets')
@Index('benchmark_secrets_org_name', ['orgId', 'secretName'])
export class BenchmarkSecret {
  @PrimaryColumn({ name: 'benchmark_id', type: 'varchar', length: 40 }) benchmarkId: string;
  @PrimaryColumn({ name: 'secret_name', type: 'varchar', length: 100 }) secretName: string;
  @Column({ name: 'org_id', type: 'varchar', length: 40 }) orgId: string;
}
