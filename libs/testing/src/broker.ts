import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port';
import { repoRoot } from './repo-root';

const run = promisify(execFile);

/** A mock Kafka broker run by scripts/kafka-mock/broker.sh, pinned to one port. */
export interface Broker {
  /** `127.0.0.1:<port>`, the value for KAFKA_BROKERS. */
  readonly brokers: string;
  readonly port: number;
  /** Kills the broker and waits until its port is closed: a Kafka outage. */
  stop(): Promise<void>;
  /** Starts it again at the same address (empty: the mock keeps nothing across restarts). */
  start(): Promise<void>;
}

async function brokerSh(command: 'start' | 'stop', port: number): Promise<string> {
  const script = join(repoRoot(), 'scripts/kafka-mock/broker.sh');
  try {
    const { stdout } = await run('bash', [script, command, String(port)], { timeout: 60_000 });
    return stdout.trim();
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`broker.sh ${command} ${port} failed: ${e.stderr || e.message}`);
  }
}

/** Starts a broker on `port` (a free one when omitted). */
export async function startBroker(port?: number): Promise<Broker> {
  const pinned = port ?? (await freePort());
  const brokers = await brokerSh('start', pinned);
  return {
    brokers,
    port: pinned,
    stop: async () => void (await brokerSh('stop', pinned)),
    start: async () => void (await brokerSh('start', pinned)),
  };
}
