import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { withStartupAtDebug } from './quiet-startup';

/**
 * Once an app's container exists, its logs go through the container's logger
 * (LoggingModule's, with the request context), Nest's startup chatter kept at debug as the
 * boot logger (bootLogger) did until then.
 */
export function useAppLogger(app: INestApplicationContext): void {
  app.useLogger(withStartupAtDebug(app.get(Logger)));
}
