import { kafkaConnectionFromEnv, requireVariables, tuneHeap, validateEnv, type HeapSettings, type KafkaConnectionEnv, type KafkaConnectionSettings } from '@cinetrace/config';
import { superviseProcess, type DependencyChecks } from '@cinetrace/health';
import { withoutUrlCredentials } from '@cinetrace/logging';
import { collectProcessMetrics } from '@cinetrace/metrics';
import { Logger } from '@nestjs/common';

/** One app run as a process of the distributed mode. */
export interface ServiceProcess<E> {
  /** The app's name: in its logs, its metrics' names, its Kafka client ids, and its failure to start. */
  name: string;
  /** Its environment class, validated at boot. */
  env: new () => E;
  /** Variables the distributed mode cannot do without, though all-in-one can (KAFKA_BROKERS, DATABASE_URL …). */
  requires: string[];
  /** Starts the app on Kafka; resolves once it takes work. */
  start(env: E, kafka: KafkaConnectionSettings): Promise<RunningProcess>;
}

/** What the process supervises of a started app. */
export interface RunningProcess {
  /** What /readyz checks, on HEALTH_PORT when the app has one (the gateway serves its probes itself). */
  checks?: DependencyChecks;
  /** Stops taking work, finishes or hands back what it holds, closes its connections. */
  close(): Promise<void>;
  /** How long close() may take before the process exits anyway (SHUTDOWN_DEADLINE_MS when unset). */
  deadlineMs?: number;
}

type ProcessEnv = KafkaConnectionEnv & HeapSettings & { HEALTH_PORT?: number };

/**
 * The start every distributed process shares: required variables, the validated
 * environment, V8's heap settings (HEAP_GROWING_PERCENT, HEAP_PRETENURING), process metrics, the Kafka connection, then the app; its probes on
 * HEALTH_PORT, and a graceful stop on SIGTERM or SIGINT (exit 0, or 1 when stopping
 * failed). A start that fails prints one line naming the app and the reason (URL
 * credentials removed) and exits 1.
 */
export function runServiceProcess<E extends ProcessEnv>(app: ServiceProcess<E>): void {
  start(app).catch((err: Error) => {
    console.error(`${app.name} failed to start: ${withoutUrlCredentials(err.message)}`);
    process.exit(1);
  });
}

async function start<E extends ProcessEnv>(app: ServiceProcess<E>): Promise<void> {
  requireVariables(app.requires, 'in the distributed mode');
  const env = validateEnv(app.env);
  tuneHeap(env, 'distributed');
  // Node's process metrics, served on /metrics with the app's own.
  collectProcessMetrics(app.name);
  const running = await app.start(env, kafkaConnectionFromEnv(env));
  await superviseProcess({
    logger: new Logger(app.name),
    healthPort: env.HEALTH_PORT,
    checks: running.checks ?? {},
    close: () => running.close(),
    deadlineMs: running.deadlineMs,
  });
}
