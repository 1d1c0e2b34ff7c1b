import { busServiceProcess, runServiceProcess } from '@cinetrace/bootstrap';
import { kafkaServerOptions } from '@cinetrace/bus';
import { Patterns } from '@cinetrace/contracts';
import { startTraceIngest } from './start-trace-ingest';
import { TraceIngestEnv } from './trace-ingest.env';
import { MEDIA_HANDOFF_TIMEOUT_MS, TRACE_INGEST } from './trace-ingest.module';

runServiceProcess({
  name: TRACE_INGEST,
  env: TraceIngestEnv,
  requires: ['KAFKA_BROKERS', 'DATABASE_URL'],
  start: async (env, kafka) => {
    const app = await startTraceIngest(
      env,
      kafkaServerOptions(TRACE_INGEST, kafka),
      {
        kind: 'kafka',
        clientId: `${TRACE_INGEST}-stream`,
        connection: { ...kafka, maxWaitTimeInMs: env.KAFKA_STREAM_MAX_WAIT_MS },
        partitions: env.TRACE_TOPIC_PARTITIONS,
        writeLingerMs: env.KAFKA_STREAM_WRITE_LINGER_MS,
      },
      {
        transport: 'kafka',
        clientId: `${TRACE_INGEST}-client`,
        kafka,
        timeoutMs: MEDIA_HANDOFF_TIMEOUT_MS,
        patterns: [Patterns.MediaCopiesRequest],
      },
    );
    return busServiceProcess(TRACE_INGEST, app, kafka);
  },
});
