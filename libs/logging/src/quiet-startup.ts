import type { LoggerService } from '@nestjs/common';
import { isStartupChatter } from './log-format';

/** `logger`, with Nest's startup chatter (isStartupChatter) written at debug instead of info. */
export function withStartupAtDebug(logger: LoggerService): LoggerService {
  // LoggerService's methods return `any`; nothing reads what a log call returns, so these return nothing.
  return {
    log: (message: unknown, ...params: unknown[]) => {
      if (isStartupChatter(params)) logger.debug?.(message, ...params);
      else logger.log(message, ...params);
    },
    error: (message: unknown, ...params: unknown[]) => {
      logger.error(message, ...params);
    },
    warn: (message: unknown, ...params: unknown[]) => {
      logger.warn(message, ...params);
    },
    debug: (message: unknown, ...params: unknown[]) => {
      logger.debug?.(message, ...params);
    },
    verbose: (message: unknown, ...params: unknown[]) => {
      logger.verbose?.(message, ...params);
    },
    fatal: (message: unknown, ...params: unknown[]) => {
      (logger.fatal ?? logger.error).call(logger, message, ...params);
    },
  };
}
