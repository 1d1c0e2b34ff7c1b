'use strict';
// When a Kafka consumer group has stored everything on its topic: its committed offsets reach
// the topic's log-end offsets. Both trace-ingest and the kafkajs + pg baseline commit a record's
// offset only after its database commit, so lag 0 means every record produced before was stored
// (read up to one commit interval late: trace-ingest's 200 ms, the baseline's at each batch).
const { Kafka, logLevel } = require('kafkajs');

/** Records of `topic` that `groupId` has not committed yet, summed over the partitions. */
async function groupLag(admin, groupId, topic) {
  const [ends, [group]] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchOffsets({ groupId, topics: [topic] })]);
  const committed = new Map(group.partitions.map((p) => [p.partition, Number(p.offset)]));
  // -1: nothing committed yet on that partition; the group starts at the oldest record kept.
  return ends.reduce((sum, end) => sum + Math.max(0, Number(end.high) - Math.max(committed.get(end.partition) ?? -1, Number(end.low))), 0);
}

/**
 * Milliseconds from now until `groupId` has no lag on `topic` (polled every `everyMs`), or null
 * when it still lags after `timeoutMs`; `behind` is the lag at the first reading.
 */
async function waitGroupCaughtUp({ brokers, groupId, topic }, { timeoutMs = 300000, everyMs = 100 } = {}) {
  const admin = new Kafka({ clientId: 'bench-lag', brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  const t0 = Date.now();
  await admin.connect();
  try {
    let behind = null;
    for (;;) {
      const lag = await groupLag(admin, groupId, topic);
      behind ??= lag;
      if (lag === 0) return { ms: Date.now() - t0, behind };
      if (Date.now() - t0 > timeoutMs) return { ms: null, behind };
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  } finally {
    await admin.disconnect().catch(() => {});
  }
}

module.exports = { waitGroupCaughtUp };
