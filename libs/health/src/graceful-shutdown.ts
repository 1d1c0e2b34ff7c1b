import { type HealthServer, startHealthServer } from './health-server';
import type { DependencyChecks } from './readiness';

export interface ShutdownLogger {
  log(message: string): void;
  error(message: string): void;
}

export interface GracefulShutdown {
  logger: ShutdownLogger;
  /** Stops taking work, finishes or hands back what the process holds, commits, closes connections. */
  close(): Promise<void>;
  /** Told first, so that /readyz answers 503 while the process drains. */
  health?: HealthServer;
  /** Past this the process exits 1 anyway: an orchestrator's grace period is no longer than this. */
  deadlineMs?: number;
}

/** Within the 10 s an orchestrator gives by default, with room for the exit itself. */
export const SHUTDOWN_DEADLINE_MS = 9500;

/**
 * On SIGTERM or SIGINT: drain, close, exit 0 (1 when closing failed or outlasted the
 * deadline). The listeners go with the first signal, so a second one ends the process at
 * once; what it held is then recovered as after a crash.
 */
export function shutDownGracefullyOnSignal(shutdown: GracefulShutdown): void {
  const deadlineMs = shutdown.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  const stop = (signal: NodeJS.Signals) => {
    shutdown.health?.markDraining();
    shutdown.logger.log(`${signal}: finishing the work in hand, then stopping`);
    const deadline = setTimeout(() => {
      shutdown.logger.error(`Not stopped within ${deadlineMs} ms; exiting anyway`);
      process.exit(1);
    }, deadlineMs);
    deadline.unref();
    shutdown
      .close()
      .then(() => shutdown.health?.close())
      .then(
        () => {
          shutdown.logger.log('Stopped');
          process.exit(0);
        },
        (err: Error) => {
          shutdown.logger.error(`Stopping failed: ${err?.message ?? err}`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

export interface SupervisedProcess {
  logger: ShutdownLogger;
  /** Where /healthz and /readyz are served (HEALTH_PORT); none when unset. */
  healthPort?: number;
  checks: DependencyChecks;
  close(): Promise<void>;
  deadlineMs?: number;
}

/** The orchestration side of a process that serves no HTTP API: its probes, and its graceful stop. */
export async function superviseProcess(supervised: SupervisedProcess): Promise<void> {
  const health = await startHealthServer(supervised.healthPort, supervised.checks);
  shutDownGracefullyOnSignal({ logger: supervised.logger, health, close: supervised.close, deadlineMs: supervised.deadlineMs });
}
