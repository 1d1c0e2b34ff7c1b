'use strict';
// The floor of the run benchmark (bench/runs.js), distributed mode: the least work the
// design asks of a task, done with bare libraries and no service code. It is the bare
// BullMQ baseline (bench/baseline-bullmq.js: same jobs, same worker settings) plus, for
// each task:
//   - in the worker, once the job is scored: its `finished` event and its trace (two spans:
//     the target call and the scorer) produced to two Kafka topics with kafkajs (acks -1;
//     the sends of LINGER_MS go out as one produce request); the job completes once the
//     broker acknowledged both;
//   - in a second process (the consumer), both topics read by one kafkajs consumer group,
//     fetching ahead of the store: what was fetched while a PostgreSQL transaction ran is
//     stored in the next one (the task rows updated, the traces and spans upserted, each
//     through unnest), offsets committed after.
// Left out, so the floor stays below what any implementation must do: the `started`
// event, the per-run window across workers, run progress and aggregates, validation.
// Timed from the first add to the last task's result stored.
// Prints one line `RESULT {json}`, then drops its queue.
// Environment: REDIS_URL, KAFKA_BROKERS, DATABASE_URL (required, an empty database),
// QUEUE_PREFIX, BASELINE_TASKS (10000), BASELINE_CONCURRENCY (16), BASELINE_LINGER_MS (5),
// BASELINE_MAX_WAIT_MS (500), BASELINE_PARTITIONS (12), BASELINE_STORE (1; 0: the consumer reads every record but
// writes nothing, to split the floor's cost between Kafka and PostgreSQL).
const { fork } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { Kafka, logLevel } = require('kafkajs');
const { Pool } = require('pg');
const { Queue, Worker } = require('bullmq');
const { taskJob, processTask, WORKER_SETTINGS } = require('./lib/run-items');
const connections = require('./lib/connections');

const REDIS_URL = connections.env().REDIS_URL || 'redis://127.0.0.1:6379';
const PREFIX = process.env.QUEUE_PREFIX || `bench-floor-${randomBytes(4).toString('hex')}`;
const TASKS = Number(process.env.BASELINE_TASKS || 10000);
const CONCURRENCY = Number(process.env.BASELINE_CONCURRENCY || 16);
const LINGER_MS = Number(process.env.BASELINE_LINGER_MS ?? 5);
// As the service's stream consumers (KAFKA_STREAM_MAX_WAIT_MS), and its topics' partitions.
const MAX_WAIT_MS = Number(process.env.BASELINE_MAX_WAIT_MS ?? 500);
const PARTITIONS = Number(process.env.BASELINE_PARTITIONS ?? 12);
const STORE = process.env.BASELINE_STORE !== '0';
const DATABASE_URL = connections.env().DATABASE_URL;
const QUEUE = 'benchmark-tasks';
const ADD_CHUNK = 500;
const EVENTS_TOPIC = `floor-task-events-${PREFIX}`;
const TRACES_TOPIC = `floor-traces-${PREFIX}`;
const PROJECT = 'prj_bench';
const CONNECTION = { ...connections.redisOptions(REDIS_URL), maxRetriesPerRequest: null };

// TLS and SASL as the apps use them (KAFKA_SSL, KAFKA_SASL_*).
const kafka = () => new Kafka({ clientId: 'bench-floor', ...connections.kafkaConnection(), logLevel: logLevel.ERROR });

// ---------------------------------------------------------------- the consumer process

const SCHEMA = `
  CREATE TABLE tasks (id text PRIMARY KEY, run_id text NOT NULL, item_index int NOT NULL, status text NOT NULL,
    attempts int NOT NULL DEFAULT 0, output text, scores text, started_at bigint, finished_at bigint);
  CREATE INDEX tasks_by_run ON tasks (run_id, status, item_index);
  CREATE TABLE traces (project_id text NOT NULL, id text NOT NULL, name text, status text NOT NULL,
    start_time bigint NOT NULL, end_time bigint, span_count int NOT NULL, input text, output text, metadata text NOT NULL,
    PRIMARY KEY (project_id, id));
  CREATE INDEX traces_by_start ON traces (project_id, start_time DESC, id DESC);
  CREATE TABLE spans (project_id text NOT NULL, trace_id text NOT NULL, id text NOT NULL, parent_id text, name text NOT NULL,
    kind text NOT NULL, status text NOT NULL, start_time bigint NOT NULL, end_time bigint, input text, output text,
    PRIMARY KEY (project_id, trace_id, id));`;

async function storeFetched(pool, events, traces) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    if (events.length) {
      await client.query(
        `UPDATE tasks SET status = e.status, attempts = e.attempt, output = e.output, scores = e.scores,
           started_at = e.started_at, finished_at = e.finished_at
         FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
           AS e(id, status, attempt, output, scores, started_at, finished_at)
         WHERE tasks.id = e.id`,
        [
          events.map((e) => e.taskId),
          events.map((e) => e.status),
          events.map((e) => e.attempt),
          events.map((e) => JSON.stringify(e.output)),
          events.map((e) => JSON.stringify(e.scores)),
          events.map((e) => e.startedAt),
          events.map((e) => e.finishedAt),
        ],
      );
    }
    if (traces.length) {
      await client.query(
        `INSERT INTO traces (project_id, id, name, status, start_time, end_time, span_count, input, output, metadata)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[], $7::int[], $8::text[], $9::text[], $10::text[])
         ON CONFLICT (project_id, id) DO UPDATE SET name = excluded.name, status = excluded.status, start_time = excluded.start_time,
           end_time = excluded.end_time, span_count = excluded.span_count, input = excluded.input, output = excluded.output, metadata = excluded.metadata`,
        [
          traces.map(() => PROJECT),
          traces.map((t) => t.id),
          traces.map((t) => t.name),
          traces.map((t) => t.status),
          traces.map((t) => t.startTime),
          traces.map((t) => t.endTime),
          traces.map((t) => t.spans.length),
          traces.map((t) => JSON.stringify(t.input)),
          traces.map((t) => JSON.stringify(t.output)),
          traces.map((t) => JSON.stringify(t.metadata)),
        ],
      );
      const spans = traces.flatMap((t) => t.spans.map((s) => ({ traceId: t.id, ...s })));
      await client.query(
        `INSERT INTO spans (project_id, trace_id, id, parent_id, name, kind, status, start_time, end_time, input, output)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::bigint[], $10::text[], $11::text[])
         ON CONFLICT (project_id, trace_id, id) DO UPDATE SET parent_id = excluded.parent_id, name = excluded.name, kind = excluded.kind,
           status = excluded.status, start_time = excluded.start_time, end_time = excluded.end_time, input = excluded.input, output = excluded.output`,
        [
          spans.map(() => PROJECT),
          spans.map((s) => s.traceId),
          spans.map((s) => s.id),
          spans.map((s) => s.parentId ?? null),
          spans.map((s) => s.name),
          spans.map((s) => s.kind),
          spans.map((s) => s.status),
          spans.map((s) => s.startTime),
          spans.map((s) => s.endTime),
          spans.map((s) => JSON.stringify(s.input ?? null)),
          spans.map((s) => JSON.stringify(s.output ?? null)),
        ],
      );
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Consumes both topics, fetching ahead of the store as the service's stream consumers do:
 * what is fetched while a transaction runs is stored together in the next one, and offsets
 * are committed once their records are stored (at-least-once).
 */
async function runConsumer() {
  const pool = new Pool({ ...connections.pgConnection(DATABASE_URL), max: 2 });
  const consumer = kafka().consumer({ groupId: `floor-${PREFIX}`, maxWaitTimeInMs: MAX_WAIT_MS, allowAutoTopicCreation: false });
  let stored = 0;
  let next = null; // the records waiting for the next transaction: { events, traces, offsets }
  let writing = Promise.resolve();
  function enqueue(topic, partition, lastOffset, values) {
    if (!next) {
      const batch = (next = { events: [], traces: [], offsets: new Map() });
      writing = writing
        .then(() => new Promise((resolve) => setImmediate(resolve))) // the rest of this fetch's partitions join it
        .then(async () => {
          next = null;
          if (STORE) await storeFetched(pool, batch.events, batch.traces);
          await consumer.commitOffsets([...batch.offsets.values()]);
          stored += batch.events.length;
          process.send({ stored });
        })
        .catch((err) => {
          console.error(`floor consumer: ${err.message}`);
          process.exit(1);
        });
    }
    (topic === EVENTS_TOPIC ? next.events : next.traces).push(...values);
    next.offsets.set(`${topic}/${partition}`, { topic, partition, offset: (BigInt(lastOffset) + 1n).toString() });
  }
  process.on('message', async (m) => {
    if (m === 'stop') {
      await consumer.disconnect().catch(() => undefined);
      await pool.end().catch(() => undefined);
      process.exit(0);
    }
  });
  await consumer.connect();
  await consumer.subscribe({ topics: [EVENTS_TOPIC, TRACES_TOPIC], fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    partitionsConsumedConcurrently: 8,
    eachBatch: async ({ batch }) => {
      const values = batch.messages.filter((m) => m.key.toString() !== 'warm').map((m) => JSON.parse(m.value.toString()));
      const lastOffset = batch.messages[batch.messages.length - 1]?.offset;
      if (values.length) enqueue(batch.topic, batch.partition, lastOffset, batch.topic === TRACES_TOPIC ? values.map((v) => v.trace) : values);
    },
  });
  process.send({ ready: true });
}

// ---------------------------------------------------------------- the worker process

/** The trace of one attempt: the target call and the scorer as spans. */
function traceOf(task, attempt, output, scores, startedAt, finishedAt) {
  return {
    projectId: task.projectId,
    trace: {
      id: task.traceId,
      name: `benchmark task ${task.item.index}`,
      status: 'ok',
      startTime: startedAt,
      endTime: finishedAt,
      input: task.item.input,
      output,
      metadata: { benchmarkId: task.benchmarkId, runId: task.runId, taskId: task.taskId, attempt },
      spans: [
        { id: `${task.traceId}_target`, name: 'target dataset', kind: 'generation', status: 'ok', startTime: startedAt, endTime: finishedAt, input: task.item.input, output },
        ...scores.map((s, k) => ({
          id: `${task.traceId}_scorer_${k}`,
          parentId: null,
          name: `scorer ${s.scorer}`,
          kind: 'scorer',
          status: 'ok',
          startTime: finishedAt,
          endTime: finishedAt,
          input: { output, expected: task.item.expected },
          output: { score: s.score, passed: s.passed },
        })),
      ],
    },
  };
}

/** Sends of LINGER_MS travel as one produce request to both topics. */
function lingeringProducer(producer) {
  let queued = [];
  let timer = null;
  async function flush() {
    timer = null;
    const batch = queued;
    queued = [];
    const byTopic = new Map();
    for (const q of batch) for (const [topic, message] of q.messages) (byTopic.get(topic) ?? byTopic.set(topic, []).get(topic)).push(message);
    try {
      await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
      for (const q of batch) q.resolve();
    } catch (err) {
      for (const q of batch) q.reject(err);
    }
  }
  return (messages) =>
    new Promise((resolve, reject) => {
      queued.push({ messages, resolve, reject });
      timer ??= setTimeout(flush, LINGER_MS);
    });
}

async function main() {
  if (process.argv[2] === 'consumer') return runConsumer();
  if (!process.env.KAFKA_BROKERS || !DATABASE_URL) throw new Error('the floor needs KAFKA_BROKERS and DATABASE_URL');
  const runId = randomBytes(6).toString('hex');
  const pool = new Pool({ ...connections.pgConnection(DATABASE_URL), max: 2 });
  await pool.query(SCHEMA);
  // The tasks exist before the clock starts, as the service's do when its run starts.
  await pool.query(`INSERT INTO tasks (id, run_id, item_index, status) SELECT 'task_' || $1 || '_' || i, $1, i, 'pending' FROM generate_series(0, $2 - 1) AS i`, [runId, TASKS]);
  await pool.query('ANALYZE tasks');
  await pool.end();

  // Both topics exist before the consumer subscribes: created on purpose, as the service's are.
  const admin = kafka().admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: [EVENTS_TOPIC, TRACES_TOPIC].map((topic) => ({ topic, numPartitions: PARTITIONS })) });
  await admin.disconnect();
  const consumerProc = fork(__filename, ['consumer'], { env: { ...process.env, QUEUE_PREFIX: PREFIX }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  let stored = 0;
  let lastAt = 0;
  let resolveAll;
  let resolveReady;
  const all = new Promise((r) => (resolveAll = r));
  const ready = new Promise((r) => (resolveReady = r));
  consumerProc.on('message', (m) => {
    if (m.ready) resolveReady();
    if (m.stored === undefined) return;
    stored = m.stored;
    if (stored >= TASKS) {
      lastAt = performance.now();
      resolveAll();
    }
  });
  consumerProc.on('exit', (code) => {
    if (!lastAt) {
      console.error(`the consumer exited (${code})`);
      resolveAll();
    }
  });

  const producer = kafka().producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const send = lingeringProducer(producer);
  // Both topics exist before the consumer subscribes and the clock starts.
  await producer.send({ topic: EVENTS_TOPIC, acks: -1, messages: [{ key: 'warm', value: 'null' }] });
  await producer.send({ topic: TRACES_TOPIC, acks: -1, messages: [{ key: 'warm', value: 'null' }] });
  await ready;

  const queue = new Queue(QUEUE, { connection: CONNECTION, prefix: PREFIX });
  let completed = 0;
  let passed = 0;
  const worker = new Worker(
    QUEUE,
    async (job) => {
      const task = job.data;
      const attempt = job.attemptsMade + 1;
      const { output, scores, startedAt, finishedAt } = processTask(task);
      const event = {
        type: 'finished',
        taskId: task.taskId,
        runId: task.runId,
        benchmarkId: task.benchmarkId,
        projectId: task.projectId,
        attempt,
        status: 'completed',
        output,
        scores,
        startedAt,
        finishedAt,
        traceId: task.traceId,
      };
      await send([
        [EVENTS_TOPIC, { key: task.taskId, value: JSON.stringify(event) }], // keyed as the service keys them
        [TRACES_TOPIC, { key: `${task.projectId}/${task.traceId}`, value: JSON.stringify(traceOf(task, attempt, output, scores, startedAt, finishedAt)) }],
      ]);
      return scores.every((s) => s.passed);
    },
    { connection: CONNECTION, prefix: PREFIX, concurrency: CONCURRENCY, ...WORKER_SETTINGS },
  );
  let workerDoneAt = 0;
  worker.on('completed', (job, ok) => {
    completed++;
    if (ok) passed++;
    if (completed === TASKS) workerDoneAt = performance.now();
  });
  worker.on('error', (err) => console.error(`worker: ${err.message}`));
  try {
    await queue.waitUntilReady();
    await worker.waitUntilReady();
    void worker.run();
    const jobs = Array.from({ length: TASKS }, (_, i) => taskJob(runId, i, PROJECT));
    const t0 = performance.now();
    for (let i = 0; i < jobs.length; i += ADD_CHUNK) await queue.addBulk(jobs.slice(i, i + ADD_CHUNK));
    const timeout = setTimeout(() => resolveAll(), Math.max(120000, TASKS * 20));
    await all;
    clearTimeout(timeout);
    const check = new Pool({ ...connections.pgConnection(DATABASE_URL), max: 1 });
    const { rows } = await check.query(
      `SELECT (SELECT count(*) FROM tasks WHERE status = 'completed')::int AS tasks, (SELECT count(*) FROM traces)::int AS traces, (SELECT count(*) FROM spans)::int AS spans`,
    );
    await check.end();
    const seconds = ((lastAt || performance.now()) - t0) / 1000;
    console.log(
      `RESULT ${JSON.stringify({ tasks: TASKS, concurrency: CONCURRENCY, completed, passed, stored: rows[0], seconds, workerSeconds: workerDoneAt ? (workerDoneAt - t0) / 1000 : null, store: STORE, tasksPerSec: (STORE ? rows[0].tasks : stored) / seconds, timedOut: !lastAt })}`,
    );
  } finally {
    consumerProc.send('stop');
    await worker.close().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await queue.obliterate({ force: true }).catch((e) => console.error(`obliterate: ${e.message}`));
    await queue.close().catch(() => undefined);
  }
}

main()
  .then(() => {
    if (process.argv[2] !== 'consumer') process.exit(0);
  })
  .catch((e) => {
    console.error(`floor failed: ${e.stack || e.message}`);
    process.exit(1);
  });
