import { Admin, Kafka } from 'kafkajs';
import { KafkaConnection, kafkaClientConfig } from './kafka.options';

/** How long one reachability probe may take. */
const PROBE_DEADLINE_MS = 2000;

/** Readiness of Kafka: a metadata round-trip through an admin connection of its own. */
export class KafkaProbe {
  private readonly admin: Admin;

  constructor(clientId: string, connection: KafkaConnection) {
    const config = kafkaClientConfig(`${clientId}-probe`, connection);
    this.admin = new Kafka({ ...config, retry: { retries: 0 } }).admin();
  }

  /** True when the cluster answered a metadata request within two seconds. */
  readonly reachable = (): Promise<boolean> => {
    const probe = (async () => {
      await this.admin.connect();
      await this.admin.describeCluster();
      return true;
    })().catch(() => false);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), PROBE_DEADLINE_MS)));
    return Promise.race([probe, deadline]).finally(() => clearTimeout(timer));
  };

  close(): Promise<void> {
    return this.admin.disconnect().catch(() => undefined);
  }
}
