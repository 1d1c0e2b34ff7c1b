import { nothingToCheck, type BusRequestShape } from './request-shape';
import type { ServiceNames } from '../wire-names';

/** A service, as it names its request topic (`<service>.requests`). */
export type ServiceName = (typeof ServiceNames)[keyof typeof ServiceNames];

/** The empty request of a pattern that takes none (pings, the intake key). */
export type NoRequest = Record<string, never>;

/** A service's answer to its ping: up, with the states of its own dependencies. */
export interface PingReply {
  status: 'ok';
  checks?: Record<string, string>;
}

/** Types only, never set at run time: the key the request and reply types ride on. */
declare const types: unique symbol;

/** One request-reply pattern, declared once: everything the bus and the services derive of it. */
export interface BusPattern<Request, Reply, Wire extends string = string, Service extends ServiceName = ServiceName> {
  /** Travels in a header of every request: never renamed, only added to. */
  readonly wire: Wire;
  /** The one service that subscribes to it and answers. */
  readonly service: Service;
  /**
   * Answering it a second time changes nothing, so its request offset may ride on the
   * once-a-second commit instead of being committed before the next record.
   */
  readonly readOnly: boolean;
  /** What its handler reads first, checked where the request is consumed. */
  readonly shape: BusRequestShape;
  /** Set on the pattern the gateway's /readyz asks the service (one per service). */
  readonly ping?: true;
  readonly [types]?: { request: Request; reply: Reply };
}

/** Any declared pattern, whatever it carries. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the types a pattern carries vary by pattern
export type AnyBusPattern = BusPattern<any, any>;

export type RequestTypeOf<P extends AnyBusPattern> = NonNullable<P[typeof types]>['request'];
export type ReplyTypeOf<P extends AnyBusPattern> = NonNullable<P[typeof types]>['reply'];

interface PatternSpec<Wire extends string, Service extends ServiceName> {
  wire: Wire;
  service: Service;
  readOnly: boolean;
  shape: BusRequestShape;
}

/**
 * Declares a pattern with its request and reply types: `busPattern<Request, Reply>()({ wire,
 * service, readOnly, shape })` (two calls, so the types are given and the wire name and service
 * inferred as literals). Without both types, the declaration does not compile.
 */
export function busPattern<Request = never, Reply = never>() {
  return <const Wire extends string, const Service extends ServiceName>(
    spec: [Request] extends [never]
      ? 'busPattern<Request, Reply>() needs its request type'
      : [Reply] extends [never]
        ? 'busPattern<Request, Reply>() needs its reply type'
        : PatternSpec<Wire, Service>,
  ): BusPattern<Request, Reply, Wire, Service> => ({ ...(spec as PatternSpec<Wire, Service>) });
}

/** The pattern a service answers to say it is up: takes nothing, changes nothing. */
export function pingPattern<const Wire extends string, const Service extends ServiceName>(
  wire: Wire,
  service: Service,
): BusPattern<NoRequest, PingReply, Wire, Service> & { readonly ping: true } {
  return { wire, service, readOnly: true, shape: nothingToCheck, ping: true };
}
