import type { LoggerService } from '@nestjs/common';
import pino from 'pino';
import { logProcessName } from './process-name';
import { redactUrlCredentialsHooks } from './url-credentials';

/**
 * The logger an app uses until its Nest container exists (and if it never does): the
 * same JSON lines as nestjs-pino, and Nest's stack-trace argument is dropped, because
 * no stack trace goes into our logs.
 */
export function bootLogger(app: string, level = process.env.LOG_LEVEL ?? 'info'): LoggerService {
  const logger = pino({ base: { app: logProcessName(app) }, level, hooks: redactUrlCredentialsHooks });
  const write = (method: 'info' | 'warn' | 'error' | 'debug' | 'trace') => (message: unknown, ...params: unknown[]) => {
    const context = params.length ? params[params.length - 1] : undefined;
    const text = message instanceof Error ? `${message.name}: ${message.message}` : String(message);
    logger[method]({ context: typeof context === 'string' ? context : undefined }, text);
  };
  return { log: write('info'), warn: write('warn'), error: write('error'), debug: write('debug'), verbose: write('trace'), fatal: write('error') };
}
