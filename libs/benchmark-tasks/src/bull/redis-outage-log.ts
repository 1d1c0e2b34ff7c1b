/** Where the bull classes write; Nest's Logger fits, and so does any console-like object. */
export interface TaskQueueLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * ioredis reports every failed reconnect: during an outage that is a line a second. This
 * logs the first error of an outage and the recovery, and stays quiet in between.
 */
export class RedisOutageLog {
  private down = false;

  constructor(
    private readonly logger: TaskQueueLogger,
    private readonly what: string,
  ) {}

  error(err: unknown): void {
    if (this.down) return;
    this.down = true;
    this.logger.warn(`${this.what}: Redis is unreachable (${describeError(err)}); retrying`);
  }

  ready(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.log(`${this.what}: Redis is reachable again`);
  }
}

/** Type and message only: no stack trace goes into the logs. */
export function describeError(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
