import { BenchmarkSecretReferences, DomainError, FactsRecordedReply, SecretReferencesRecordRequest } from '@cinetrace/contracts';
import { inTransaction } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { recordSecretReferences } from '../store/secret-references.queries';

/**
 * Keeps the secret names benchmark-service's benchmarks reference, as it tells them: what a
 * secret's delete is refused by. A batch told again changes nothing.
 */
@Injectable()
export class SecretReferencesService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async record(request: SecretReferencesRecordRequest): Promise<FactsRecordedReply> {
    const facts = request?.benchmarks;
    if (!Array.isArray(facts)) throw DomainError.validation([{ path: 'benchmarks', message: 'must be a list' }]);
    // Any process on the bus can publish: a malformed fact refuses the whole batch, naming it.
    const bad = facts.findIndex((fact) => !isReferencesFact(fact));
    if (bad >= 0) throw DomainError.validation([{ path: `benchmarks[${bad}]`, message: 'is not the secret references of a benchmark' }]);
    await inTransaction(this.dataSource, async (tx) => {
      for (const fact of facts) await recordSecretReferences(tx, fact);
    });
    return { taken: facts.length };
  }
}

const isId = (v: unknown) => typeof v === 'string' && v.length > 0 && v.length <= 40;

function isReferencesFact(value: unknown): value is BenchmarkSecretReferences {
  if (value === null || typeof value !== 'object') return false;
  const fact = value as Record<string, unknown>;
  const names = fact.names;
  return (
    isId(fact.benchmarkId) &&
    isId(fact.orgId) &&
    typeof fact.deleted === 'boolean' &&
    Array.isArray(names) &&
    names.every((name) => typeof name === 'string' && name.length > 0 && name.length <= 100)
  );
}
