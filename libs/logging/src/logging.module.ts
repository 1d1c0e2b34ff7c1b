import type { LogLevel } from '@cinetrace/config';
import { DynamicModule, Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { logDestination } from './log-format';
import { logProcessName } from './process-name';
import { redactUrlCredentialsHooks, withoutUrlCredentials } from './url-credentials';

// LOG_LEVEL's values, as the apps' environment validates them.
export type { LogLevel };

/**
 * Structured logs (pino) for every app: JSON lines, or readable lines at a terminal (logFormat). Secrets never reach a log line: auth and
 * key headers are redacted, errors are reduced to their type and message (no stack), and
 * credentials of URLs in any message are redacted (withoutUrlCredentials).
 */
@Module({})
export class LoggingModule {
  /**
   * `unloggedPosts`: POST routes whose requests get no request logger (pino-http's child
   * logger, bound through AsyncLocalStorage): routes served outside Nest's pipeline, whose
   * own log lines name their request (the gateway's OTLP routes).
   */
  static forApp(app: string, level: LogLevel, unloggedPosts: readonly string[] = []): DynamicModule {
    const options = {
      level,
      base: { app: logProcessName(app) },
      genReqId: (req) => (req as { id?: string }).id ?? '',
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-project-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
      hooks: redactUrlCredentialsHooks,
      serializers: {
        err: (err: Error) => ({ type: err?.name, message: err?.message === undefined ? undefined : withoutUrlCredentials(String(err.message)) }),
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
      },
      autoLogging: level === 'debug' || level === 'trace',
    } satisfies Options;
    const destination = logDestination();
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: destination ? [options, destination] : options,
          ...(unloggedPosts.length ? { exclude: unloggedPosts.map((path) => ({ path, method: RequestMethod.POST })) } : {}),
        }),
      ],
    };
  }
}
