import { benchmarkServicePatterns } from './bus-patterns/benchmark-service.patterns';
import type { ServiceName } from './bus-patterns/bus-pattern';
import { declaredOnce } from './bus-patterns/declared-once';
import { mediaServicePatterns } from './bus-patterns/media-service.patterns';
import { projectServicePatterns } from './bus-patterns/project-service.patterns';
import { promptServicePatterns } from './bus-patterns/prompt-service.patterns';
import { traceIngestPatterns } from './bus-patterns/trace-ingest.patterns';
import { ServiceNames } from './wire-names';

export type { ServiceName } from './bus-patterns/bus-pattern';

/**
 * Every request-reply pattern, each declared once (bus-patterns/, one file per owning service:
 * a service subscribes to exactly its file's patterns, which span several domains, so one file
 * answers "what does this service answer"). Everything below is derived from these entries.
 */
export const BUS_PATTERNS = declaredOnce(projectServicePatterns, promptServicePatterns, traceIngestPatterns, benchmarkServicePatterns, mediaServicePatterns);

type Declared = typeof BUS_PATTERNS;
type Entry = Declared[keyof Declared];

/**
 * Request-reply patterns' wire names by name. In the distributed mode each travels in a header
 * of a record on its service's request topic (`<service>.requests`; replies come back on the
 * caller's `<client>.reply`): never rename one, only add new ones.
 */
export const Patterns = Object.fromEntries(Object.entries(BUS_PATTERNS).map(([name, entry]) => [name, entry.wire])) as {
  readonly [Name in keyof Declared]: Declared[Name]['wire'];
};

export type Pattern = Entry['wire'];

/** The declaration of the pattern whose wire name is `P`. */
export type PatternEntry<P extends Pattern> = Extract<Entry, { wire: P }>;

const entries: readonly Entry[] = Object.values(BUS_PATTERNS);

/**
 * Patterns whose handlers only read: answering one a second time changes nothing. A service
 * commits its request offset after each of the others before it takes the next record (a write
 * read again after a restart would run twice); these ride on the once-a-second commit instead,
 * which spares every read an OffsetCommit.
 */
export const READ_ONLY_PATTERNS: ReadonlySet<Pattern> = new Set(entries.filter((entry) => entry.readOnly).map((entry) => entry.wire));

/** The patterns each service answers; a service subscribes to exactly these. */
export const ServicePatterns = perService((service) => entries.filter((entry) => entry.service === service).map((entry) => entry.wire)) as {
  readonly [S in ServiceName]: ReadonlyArray<Extract<Entry, { service: S }>['wire']>;
};

/** The pattern each service answers to say it is up (the gateway's /readyz asks them all). */
export const ServicePings = perService((service) => entries.find((entry) => entry.service === service && entry.ping)?.wire) as {
  readonly [S in ServiceName]: Extract<Entry, { service: S; ping: true }>['wire'];
};

/** Every service has its ping: a service declared without one fails to compile here. */
export const EVERY_SERVICE_HAS_A_PING: [Exclude<ServiceName, Extract<Entry, { ping: true }>['service']>] extends [never] ? true : never = true;

const serviceByPattern = new Map<string, ServiceName>(entries.map((entry) => [entry.wire, entry.service]));

/** The service that answers `pattern`, or undefined for a pattern no service answers. */
export function serviceAnswering(pattern: string): ServiceName | undefined {
  return serviceByPattern.get(pattern);
}

function perService<T>(value: (service: ServiceName) => T): Record<ServiceName, T> {
  const all = {} as Record<ServiceName, T>;
  for (const service of Object.values(ServiceNames)) all[service] = value(service);
  return all;
}
