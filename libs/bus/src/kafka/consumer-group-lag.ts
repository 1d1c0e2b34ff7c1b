import { Admin, Kafka } from 'kafkajs';
import { KafkaConnection, kafkaClientConfig } from './kafka.options';

/** How far a consumer group is behind on a topic, as the broker tells it. */
export interface GroupLag {
  /** Records on the topic the group has not committed yet (summed over partitions). */
  behind: number;
  /** Sum of the group's committed offsets: its growth over time is how fast the group stores. */
  committed: number;
}

/** Reads a group's lag from Kafka: the topic's log-end offsets against the group's committed ones. */
export class KafkaGroupLag {
  private readonly admin: Admin;
  private connected?: Promise<void>;

  constructor(clientId: string, connection: KafkaConnection) {
    const config = kafkaClientConfig(`${clientId}-lag`, connection);
    // One attempt per reading: the next reading is the retry.
    this.admin = new Kafka({ ...config, retry: { retries: 0 } }).admin();
  }

  async read(groupId: string, topic: string): Promise<GroupLag> {
    this.connected ??= this.admin.connect().catch((err) => {
      this.connected = undefined;
      throw err;
    });
    await this.connected;
    const [ends, [group]] = await Promise.all([this.admin.fetchTopicOffsets(topic), this.admin.fetchOffsets({ groupId, topics: [topic] })]);
    const committedAt = new Map(group?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
    let behind = 0;
    let committed = 0;
    for (const end of ends) {
      // -1: nothing committed yet; the group starts from the oldest record kept.
      const from = Math.max(committedAt.get(end.partition) ?? -1, Number(end.low));
      behind += Math.max(0, Number(end.high) - from);
      committed += from;
    }
    return { behind, committed };
  }

  close(): Promise<void> {
    this.connected = undefined;
    return this.admin.disconnect().catch(() => undefined);
  }
}
