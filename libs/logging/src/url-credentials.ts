/**
 * `scheme://user:password@host` (what DATABASE_URL and REDIS_URL look like) up to the last `@`
 * before a space or `/`, so that a password holding a raw `@` is taken whole.
 */
// The scheme is bounded (32 characters): unbounded, a long `a.a.a.a…` in a logged message made
// every word start scan to its end (quadratic), and log lines may quote what a client sent.
const USERINFO = /\b([a-z][a-z0-9+.-]{0,31}:\/\/)[^\s/]+@/gi;
/** A password given as a URL parameter instead (`?password=…`, as libpq and node-postgres accept). */
const PASSWORD_PARAMETER = /([?&]password=)[^&\s]+/gi;

/**
 * The text with the credentials of any URL in it replaced by `[redacted]`. Every log line
 * goes through it: a driver's connection error may quote the URL it was given, and a URL
 * given to the apps carries its password.
 */
export function withoutUrlCredentials(text: string): string {
  return text.replace(USERINFO, '$1[redacted]@').replace(PASSWORD_PARAMETER, '$1[redacted]');
}

/**
 * pino's `hooks`: every string handed to a log call (the message and its format arguments)
 * loses its URL credentials before it is written.
 */
export const redactUrlCredentialsHooks = {
  logMethod(this: unknown, args: unknown[], method: (...args: unknown[]) => void): void {
    method.apply(
      this,
      args.map((arg) => (typeof arg === 'string' ? withoutUrlCredentials(arg) : arg)),
    );
  },
};
