'use strict';
// When a Kafka consumer group has stored everything on its topic: its committed offsets reach
// the topic's log-end offsets (the lag the gateway's lag gate reads, libs/bus KafkaGroupLag).
// Both trace-ingest and the kafkajs + pg baseline commit a record's offset only after its
// database commit, so lag 0 means every record produced before was stored (read up to one
// commit interval late: trace-ingest's 200 ms, the baseline's at each batch).
const path = require('node:path');
const { KafkaGroupLag } = require(path.join(__dirname, '../../libs/bus/dist/kafka/consumer-group-lag'));

/**
 * Milliseconds from now until `groupId` has no lag on `topic` (polled every `everyMs`), or null
 * when it still lags after `timeoutMs`; `behind` is the lag at the first reading.
 */
async function waitGroupCaughtUp({ brokers, groupId, topic }, { timeoutMs = 300000, everyMs = 100 } = {}) {
  const lag = new KafkaGroupLag('bench', { brokers: brokers.split(',') });
  const t0 = Date.now();
  try {
    let first = null;
    for (;;) {
      // A failed reading is retried by the next one (KafkaGroupLag makes one attempt a reading).
      const behind = await lag.read(groupId, topic).then(
        (read) => read.behind,
        () => null,
      );
      first ??= behind;
      if (behind === 0) return { ms: Date.now() - t0, behind: first };
      if (Date.now() - t0 > timeoutMs) return { ms: null, behind: first };
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  } finally {
    await lag.close();
  }
}

module.exports = { waitGroupCaughtUp };
