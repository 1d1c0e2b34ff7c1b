import { BusClient } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { OutboxRelayProvider } from '@cinetrace/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { deleteFacts, type FactKind, oldestFacts } from '../store/fact-outbox';
import { evaluationRunFacts, gateBenchmarkFacts, secretReferenceFacts } from './fact-states';

/** Facts sent per batch. */
const BATCH = 200;
/** The longest a request waits for its facts to be taken before it answers anyway (the relay keeps trying). */
const FLUSH_WAIT_MS = 2_000;

/**
 * Tells prompt-service and project-service what they keep a copy of (fact_outbox): benchmarks
 * and completed runs of prompts (a release's gate), the secrets benchmarks name (a secret's
 * delete). benchmark-service calls them; they never call it, so the services form no cycle.
 * A fact is deleted once its receiver answered; receivers take one twice without harm.
 */
@Injectable()
export class FactRelay extends OutboxRelayProvider {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bus: BusClient,
  ) {
    super(FactRelay.name);
  }

  /**
   * Sends what waits now and resolves once it is taken (or failed, or after 2 s): a request
   * that changed a fact answers once the other service knows, so its caller's next request
   * there (a secret's delete after a benchmark's) sees it.
   */
  flush(): Promise<void> {
    return this.flushWithin(FLUSH_WAIT_MS);
  }

  /** Sends one batch now (specs drive the relay batch by batch). */
  sendBatch(): Promise<boolean> {
    return this.handOverBatch();
  }

  /** One batch, oldest first; answers whether more may wait. */
  protected async handOverBatch(): Promise<boolean> {
    const manager = this.dataSource.manager;
    const batch = await oldestFacts(manager, BATCH);
    if (!batch.length) return false;
    const subjects = (kind: FactKind) => [...new Set(batch.filter((fact) => fact.kind === kind).map((fact) => fact.subjectId))];
    const [benchmarks, runs, references] = await Promise.all([
      gateBenchmarkFacts(manager, subjects('gate-benchmark')),
      evaluationRunFacts(manager, subjects('gate-run')),
      secretReferenceFacts(manager, subjects('secret-references')),
    ]);
    if (benchmarks.length || runs.length) await this.bus.request(Patterns.EvaluationsRecord, { benchmarks, runs });
    if (references.length) await this.bus.request(Patterns.SecretReferencesRecord, { benchmarks: references });
    await deleteFacts(
      manager,
      batch.map((fact) => fact.id),
    );
    return batch.length === BATCH;
  }
}
