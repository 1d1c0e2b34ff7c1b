import type { ProjectContext } from '@cinetrace/contracts';
import { DomainError } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import { IsNull } from 'typeorm';
import { Benchmark } from './benchmark.entity';

/**
 * Reads a live benchmark of the project and, on PostgreSQL, locks its row until the
 * transaction ends: a start, a delete and a run's end then take turns on it.
 */
export async function lockBenchmark(tx: EntityManager, ctx: ProjectContext, id: string): Promise<Benchmark> {
  const postgres = tx.connection.options.type === 'postgres';
  const benchmark = await tx.findOne(Benchmark, {
    where: { id, projectId: ctx.projectId, deletedAt: IsNull() },
    ...(postgres ? { lock: { mode: 'pessimistic_write' } } : {}),
  });
  if (!benchmark) throw DomainError.notFound(`No benchmark with id '${id}' in this project`);
  return benchmark;
}
