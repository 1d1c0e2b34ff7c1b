import { Env } from './env-class';
import { withHeapSettings } from './heap-settings';
import { withHealthPort } from './health.env';
import { withBus, withRequestServer } from './kafka.env';
import { withLog } from './log.env';
import { withMediaStorage } from './media-storage.env';
import { withStore } from './store.env';
import { withStreamConsumer } from './stream-consumer.env';

// The blocks as the apps combine them; each app's class extends one and adds its own variables.

/**
 * The gateway's: the bus, its store (idempotency records, the cursor secret), logs, and the
 * media storage it streams uploads into; its probes are on PORT.
 */
export class GatewayBaseEnv extends withHeapSettings(withMediaStorage(withLog(withStore(withBus(Env))))) {}

/** A service that answers on the bus with a store of its own (prompt-service, project-service). */
export class ServiceEnv extends withHeapSettings(withHealthPort(withLog(withStore(withRequestServer(withBus(Env)))))) {}

/** A service that also consumes a stream (trace-ingest, benchmark-service). */
export class StreamServiceEnv extends withHeapSettings(withHealthPort(withLog(withStreamConsumer(withStore(withRequestServer(withBus(Env))))))) {}

/** A process with no store: the bus, logs and probes (benchmark-worker). */
export class WorkerEnv extends withHeapSettings(withHealthPort(withLog(withBus(Env)))) {}
