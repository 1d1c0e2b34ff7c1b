// kafkajs 2.2.4 commits a consumer's offsets after every batch even when autoCommitInterval
// is set, and its next fetch waits for that OffsetCommit: ~7 ms on Kafka 4, twice per
// request-reply (docs/architecture.md, "The bus"). patches/kafkajs+2.2.4.patch makes a
// batch's end commit only when the interval (or threshold) is due; these tests fail if the
// patch is lost.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const Runner = require('kafkajs/src/consumer/runner') as new (options: object) => {
  running: boolean;
  handleBatch(batch: object): Promise<void>;
};

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const logger: object = { ...silent, namespace: () => logger };

function runnerWith(commitSettings: { autoCommitInterval: number | null; autoCommitThreshold: number | null }) {
  const commits = { always: 0, ifNecessary: 0 };
  const consumerGroup = {
    ...commitSettings,
    groupId: 'g',
    memberId: 'm',
    commitOffsets: async () => void commits.always++,
    commitOffsetsIfNecessary: async () => void commits.ifNecessary++,
    resolveOffset: () => undefined,
    heartbeat: async () => undefined,
    hasSeekOffset: () => false,
    isPaused: () => false,
    getNodeIds: () => [],
  };
  const runner = new Runner({
    logger,
    consumerGroup,
    instrumentationEmitter: { emit: () => undefined },
    eachMessage: async () => undefined,
    concurrency: 1,
    onCrash: () => undefined,
  });
  runner.running = true;
  return { runner, commits };
}

const batch = {
  topic: 't',
  partition: 0,
  highWatermark: '2',
  messages: [{ offset: '0' }, { offset: '1' }],
  offsetLag: () => '0',
  offsetLagLow: () => '0',
  firstOffset: () => '0',
  lastOffset: () => '1',
  isEmpty: () => false,
  isEmptyDueToFiltering: () => false,
};

describe('kafkajs Runner, as patched', () => {
  it('with an autoCommitInterval, ends a batch without an unconditional commit', async () => {
    const { runner, commits } = runnerWith({ autoCommitInterval: 1000, autoCommitThreshold: null });
    await runner.handleBatch(batch);
    expect(commits.always).toBe(0);
    expect(commits.ifNecessary).toBeGreaterThan(0); // within the batch and at its end, when due
  });

  it("without one, still commits after every batch (kafkajs' default)", async () => {
    const { runner, commits } = runnerWith({ autoCommitInterval: null, autoCommitThreshold: null });
    await runner.handleBatch(batch);
    expect(commits.always).toBe(1);
  });
});
