import { DomainError, ErrorCode, ProjectContext } from '@cinetrace/contracts';
import type { EntityManager } from 'typeorm';
import { lockProjectStarts } from '../store/row-locks';
import { countActiveRunsOfProject, runStartsSince } from '../store/runs.queries';

export interface RunQuotas {
  activeRuns: number;
  tasksPerRun: number;
  startsPerHour: number;
}

const HOUR_MS = 3_600_000;
/** A run frees its slot when it ends; there is no telling when, so ask again in a while. */
const ACTIVE_RUN_RETRY_S = 30;

const exceeded = (detail: string, retryAfterS: number) => new DomainError(ErrorCode.QuotaExceeded, detail, undefined, Math.max(1, Math.ceil(retryAfterS)));

/**
 * The per-project limits a start must fit in, checked inside the start's transaction.
 * On PostgreSQL a transaction-scoped advisory lock on the project serializes its starts,
 * so two concurrent starts cannot both take the last slot; SQLite writes one at a time.
 */
export async function checkStartQuotas(tx: EntityManager, ctx: ProjectContext, quotas: RunQuotas, now: number): Promise<void> {
  await lockProjectStarts(tx, ctx.projectId);
  const active = await countActiveRunsOfProject(tx, ctx.projectId);
  if (active >= quotas.activeRuns) {
    throw exceeded(`QUOTA_ACTIVE_RUNS: the project already has ${active} runs queued or running (limit ${quotas.activeRuns})`, ACTIVE_RUN_RETRY_S);
  }
  const recent = await runStartsSince(tx, ctx.projectId, now - HOUR_MS);
  if (recent.length >= quotas.startsPerHour) {
    // The start that must leave the window before one more fits in it.
    const freeing = recent[recent.length - quotas.startsPerHour];
    throw exceeded(`QUOTA_STARTS_PER_HOUR: the project started ${recent.length} runs in the last hour (limit ${quotas.startsPerHour})`, (freeing + HOUR_MS - now) / 1000);
  }
}

/** Waiting does not shrink a run: the answer says so, and Retry-After is the hourly window. */
export function checkTaskCount(count: number, quotas: RunQuotas): void {
  if (count > quotas.tasksPerRun) {
    throw exceeded(`QUOTA_TASKS_PER_RUN: the run would have ${count} tasks (limit ${quotas.tasksPerRun}); start it on fewer items with rowSubset`, HOUR_MS / 1000);
  }
}
