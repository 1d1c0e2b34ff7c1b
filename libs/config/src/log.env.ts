import { IsIn } from 'class-validator';
import type { EnvClass } from './env-class';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The log block: how much an app logs. */
export function withLog<B extends EnvClass>(Base: B) {
  class LogEnv extends Base {
    /** `debug` also shows Nest's startup (modules, route mappings). */
    @IsIn(LOG_LEVELS) LOG_LEVEL: LogLevel = 'info';
  }
  return LogEnv;
}
