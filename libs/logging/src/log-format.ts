import type { DestinationStream } from 'pino';
import pinoPretty from 'pino-pretty';

/**
 * How log lines are written: `json` (one JSON object a line, for collectors) or `pretty`
 * (one readable line, for a person at a terminal). LOG_FORMAT chooses; unset, a terminal on
 * stdout gets `pretty` and anything else (a file, a pipe, a container's log) `json`.
 */
export function logFormat(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = process.stdout.isTTY === true): 'json' | 'pretty' {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return stdoutIsTerminal ? 'pretty' : 'json';
}

let prettyStream: DestinationStream | undefined;

/**
 * Where log lines go: for `pretty`, one pino-pretty stream for the whole process (in the
 * process, synchronous: no worker thread per logger; the all-in-one mode has ten loggers),
 * showing time, level, context and message; for `json`, undefined (pino's stdout).
 */
export function logDestination(format = logFormat()): DestinationStream | undefined {
  if (format !== 'pretty') return undefined;
  prettyStream ??= pinoPretty({
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,app,context,req,res,responseTime',
    messageFormat: '{if context}{context}: {end}{msg}',
  });
  return prettyStream;
}

/**
 * What Nest says while it starts (each module initialized, each route mapped: ~100 lines
 * for the all-in-one mode) is written at debug, not info: `LOG_LEVEL=debug` shows it.
 */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication', 'NestMicroservice']);

/** Whether a Nest `log` call (its last argument the context) is startup chatter. */
export function isStartupChatter(params: unknown[]): boolean {
  const context = params[params.length - 1];
  return typeof context === 'string' && STARTUP_CONTEXTS.has(context);
}
