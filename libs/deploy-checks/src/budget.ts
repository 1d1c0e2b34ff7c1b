import { type AppContract, appContract } from './app-contract';
import { type ShutdownBudget } from './checks';
import { deployableApps } from './repo';

/** What the orchestrator leaves on top of an app's own shutdown deadline (closing connections, exiting). */
export const SHUTDOWN_MARGIN_MS = 5000;

interface HealthTimings {
  SHUTDOWN_DEADLINE_MS?: unknown;
  CHECK_DEADLINE_MS?: unknown;
}

/** libs/health's timings (read at run time, so this package does not build against it). */
function healthTimings(): { shutdownDeadlineMs: number; checkDeadlineMs: number } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const health = require('@cinetrace/health') as HealthTimings;
  const { SHUTDOWN_DEADLINE_MS, CHECK_DEADLINE_MS } = health;
  if (typeof SHUTDOWN_DEADLINE_MS !== 'number' || typeof CHECK_DEADLINE_MS !== 'number') {
    throw new Error('@cinetrace/health no longer exports SHUTDOWN_DEADLINE_MS and CHECK_DEADLINE_MS: update libs/deploy-checks/src/budget.ts');
  }
  return { shutdownDeadlineMs: SHUTDOWN_DEADLINE_MS, checkDeadlineMs: CHECK_DEADLINE_MS };
}

/** How long every app may take to stop after SIGTERM, as libs/health says, plus the margin. */
export const shutdownBudget = (): ShutdownBudget => ({ shutdownDeadlineMs: healthTimings().shutdownDeadlineMs, marginMs: SHUTDOWN_MARGIN_MS });

/** How long /readyz waits for a dependency before calling it down (probes must wait longer). */
export const readinessCheckDeadlineMs = (): number => healthTimings().checkDeadlineMs;

/** The contract of every deployed app, read from its code. */
export const allContracts = (): Map<string, AppContract> => new Map(deployableApps().map((app) => [app, appContract(app)]));
