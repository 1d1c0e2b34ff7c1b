import { DomainError, EvaluationRunFact, EvaluationsRecordRequest, FactsRecordedReply, GateBenchmarkFact } from '@cinetrace/contracts';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { recordGateBenchmarks, recordGateRuns } from '../store/gate-evidence.queries';

/**
 * Keeps what benchmark-service tells of its benchmarks and completed runs of prompts: the
 * evidence gates are judged by. A batch told again (a resend, a second replica) changes nothing.
 */
@Injectable()
export class EvaluationsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(request: EvaluationsRecordRequest): Promise<FactsRecordedReply> {
    const benchmarks = listOf<GateBenchmarkFact>(request?.benchmarks, 'benchmarks', isBenchmarkFact);
    const runs = listOf<EvaluationRunFact>(request?.runs, 'runs', isRunFact);
    await inTransaction(this.dataSource, async (tx) => {
      await recordGateBenchmarks(tx, benchmarks);
      await recordGateRuns(tx, runs);
    });
    return { taken: benchmarks.length + runs.length };
  }
}

/** Any process on the bus can publish: a malformed fact refuses the whole batch, naming it. */
function listOf<T>(value: unknown, path: string, valid: (item: Record<string, unknown>) => boolean): T[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw DomainError.validation([{ path, message: 'must be a list' }]);
  const bad = value.findIndex((item) => item === null || typeof item !== 'object' || !valid(item as Record<string, unknown>));
  if (bad >= 0) throw DomainError.validation([{ path: `${path}[${bad}]`, message: 'is not a fact of this kind' }]);
  return value as T[];
}

const isId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 40;
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isObject = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

const isBenchmarkFact = (f: Record<string, unknown>): boolean =>
  isId(f.id) &&
  isId(f.projectId) &&
  isId(f.datasetId) &&
  Array.isArray(f.scorers) &&
  f.scorers.every((s) => typeof s === 'string') &&
  (f.datasetVersion === null || isCount(f.datasetVersion)) &&
  typeof f.deleted === 'boolean';

const isRunFact = (f: Record<string, unknown>): boolean =>
  ['id', 'projectId', 'benchmarkId', 'promptId', 'datasetId'].every((k) => isId(f[k])) &&
  ['promptVersion', 'datasetVersion', 'items', 'datasetItems', 'finishedAt'].every((k) => isCount(f[k])) &&
  isObject(f.scores);
