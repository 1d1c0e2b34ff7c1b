import { type AppContract, appContract } from './app-contract';
import { type GivenEnvironment } from './env-check';
import { deployableApps } from './repo';

/** How long an app may take to stop, by its code: the shutdown deadline, or the worker's grace when longer. */
export interface ShutdownBudget {
  /** SHUTDOWN_DEADLINE_MS of libs/health: every process exits within it after SIGTERM. */
  shutdownDeadlineMs: number;
  /** What the orchestrator should leave on top (closing connections, the exit itself). */
  marginMs: number;
}

/** What the orchestrator leaves on top of an app's own shutdown deadline (closing connections, exiting). */
export const SHUTDOWN_MARGIN_MS = 5000;

interface HealthTimings {
  SHUTDOWN_DEADLINE_MS?: unknown;
  CHECK_DEADLINE_MS?: unknown;
}

/** libs/health's timings (read at run time, so the suite does not compile against it). */
function healthTimings(): { shutdownDeadlineMs: number; checkDeadlineMs: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const health = require('@cinetrace/health') as HealthTimings;
  const { SHUTDOWN_DEADLINE_MS, CHECK_DEADLINE_MS } = health;
  if (typeof SHUTDOWN_DEADLINE_MS !== 'number' || typeof CHECK_DEADLINE_MS !== 'number') {
    throw new Error('@cinetrace/health no longer exports SHUTDOWN_DEADLINE_MS and CHECK_DEADLINE_MS: update test/deploy-checks/budget.ts');
  }
  return { shutdownDeadlineMs: SHUTDOWN_DEADLINE_MS, checkDeadlineMs: CHECK_DEADLINE_MS };
}

/** How long every app may take to stop after SIGTERM, as libs/health says, plus the margin. */
export const shutdownBudget = (): ShutdownBudget => ({ shutdownDeadlineMs: healthTimings().shutdownDeadlineMs, marginMs: SHUTDOWN_MARGIN_MS });

/** What an app needs after SIGTERM: its deadline, or the worker's task grace when longer, plus margin. */
export function shutdownNeedMs(given: GivenEnvironment, budget: ShutdownBudget): number {
  const workerGrace = Number(given.variables.get('WORKER_SHUTDOWN_GRACE_MS')?.value ?? 0) || 0;
  return Math.max(budget.shutdownDeadlineMs, workerGrace) + budget.marginMs;
}

/** How long /readyz waits for a dependency before calling it down (probes must wait longer). */
export const readinessCheckDeadlineMs = (): number => healthTimings().checkDeadlineMs;

/** The contract of every deployed app, read from its code. */
export const allContracts = (): Map<string, AppContract> => new Map(deployableApps().map((app) => [app, appContract(app)]));
