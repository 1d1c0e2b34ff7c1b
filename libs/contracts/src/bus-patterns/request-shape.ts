/**
 * What a pattern's handler reads of its request before anything else, checked where the
 * request is consumed (libs/bus) as an HTTP body is at the gateway: any process on the bus
 * can publish, so a service trusts no request's shape. The rest of a request (filters,
 * pages, optional fields) is read defensively by the services.
 */
export interface BusRequestShape {
  /** The caller the handler scopes by, in `ctx`: a project's (ProjectContext) or an organization's (OrgContext). */
  ctx?: 'project' | 'org';
  /** Top-level fields that must be non-empty strings (ids, names, keys). */
  strings?: readonly string[];
  /**
   * The `input` class, validated with class-validator as the gateway validates the body.
   * Only where the handler takes the request whole: a handler that takes `@Payload('input')`
   * typed by its class has the services' validation pipe check it already.
   */
  input?: new () => object;
}

/** A request made for a project's caller (`ctx` a ProjectContext), with these non-empty strings. */
export const projectScoped = (...strings: string[]): BusRequestShape => ({ ctx: 'project', strings });

/** A request made for an organization's caller (`ctx` an OrgContext), with these non-empty strings. */
export const orgScoped = (...strings: string[]): BusRequestShape => ({ ctx: 'org', strings });

/** A request whose handler reads nothing before checking it itself (or takes nothing). */
export const nothingToCheck: BusRequestShape = {};
