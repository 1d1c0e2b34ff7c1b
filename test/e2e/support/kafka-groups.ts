import { Stack, testKafka, unique } from '@cinetrace/testing';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits until each consumer group is Stable with `members` members: replicas that start
 * together join one after another, and each join rebalances the group (a few seconds in
 * which its partitions are not read), which a test of a later rebalance must not mix up.
 */
export async function groupsSettled(stack: Stack, groupIds: string[], members: number, timeoutMs = 60_000): Promise<void> {
  const admin = testKafka(unique('e2e-groups'), stack.kafkaEnv!).admin();
  await admin.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { groups } = await admin.describeGroups(groupIds);
      const seen = groups.map((g) => `${g.groupId}: ${g.state}, ${g.members.length} members`);
      if (groups.every((g) => g.state === 'Stable' && g.members.length === members)) return;
      if (Date.now() > deadline) throw new Error(`consumer groups not settled: ${seen.join('; ')}`);
      await sleep(250);
    }
  } finally {
    await admin.disconnect();
  }
}
