import type { LoggerService } from '@nestjs/common';
import pino from 'pino';
import { logDestination } from './log-format';
import { logProcessName } from './process-name';
import { withStartupAtDebug } from './quiet-startup';
import { redactUrlCredentialsHooks } from './url-credentials';

/**
 * The logger an app uses until its Nest container exists (and if it never does): the
 * same lines as nestjs-pino (JSON, or readable at a terminal: logFormat), Nest's startup
 * chatter at debug, and Nest's stack-trace argument is dropped, because
 * no stack trace goes into our logs.
 */
export function bootLogger(app: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerService {
  const options = { base: { app: logProcessName(app) }, level, hooks: redactUrlCredentialsHooks };
  const destination = logDestination();
  const logger = destination ? pino(options, destination) : pino(options);
  const write =
    (method: 'info' | 'warn' | 'error' | 'debug' | 'trace') =>
    (message: unknown, ...params: unknown[]) => {
      const context = params.length ? params[params.length - 1] : undefined;
      const text = message instanceof Error ? `${message.name}: ${message.message}` : String(message);
      logger[method]({ context: typeof context === 'string' ? context : undefined }, text);
    };
  return withStartupAtDebug({ log: write('info'), warn: write('warn'), error: write('error'), debug: write('debug'), verbose: write('trace'), fatal: write('error') });
}
