import { Histogram } from 'prom-client';
import { LATENCY_BUCKETS_SECONDS } from './labels';
import { metricsRegistry } from './registry';

const batchRecords = new Histogram({
  name: 'cinetrace_trace_store_batch_records',
  help: 'Trace ingest messages trace-ingest wrote to its store in one transaction',
  buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2000, 5000],
  registers: [metricsRegistry],
});
const batchWriteSeconds = new Histogram({
  name: 'cinetrace_trace_store_batch_write_duration_seconds',
  help: 'Time trace-ingest took to write one batch of trace ingest messages to its store (one transaction)',
  labelNames: ['outcome'] as const,
  buckets: LATENCY_BUCKETS_SECONDS,
  registers: [metricsRegistry],
});

export const STORE_WRITE_OUTCOMES = ['ok', 'error'] as const;

/** Times one batch write; the batch size counts only when it was stored. */
export async function timeTraceBatchWrite<T>(records: number, write: () => Promise<T>): Promise<T> {
  const end = batchWriteSeconds.startTimer();
  try {
    const result = await write();
    end({ outcome: 'ok' });
    batchRecords.observe(records);
    return result;
  } catch (err) {
    end({ outcome: 'error' });
    throw err;
  }
}
