import { DomainError, ErrorCode, type Pattern, type ReplyOf, type RequestOf } from '@cinetrace/contracts';
import { observeBusRequest } from '@cinetrace/metrics';
import { Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { firstValueFrom, timeout } from 'rxjs';
import { JsonText, replyValue } from './json-text';
import { toDomainError } from './to-domain-error';

/**
 * What the gateway (or any caller) uses to talk to services: one request, one reply,
 * bounded by a timeout, with every failure turned into a DomainError.
 */
export class BusClient implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(BusClient.name);
  private connecting?: Promise<void>;

  constructor(
    // Any transport's proxy (Kafka's, the in-process one), whatever its event map and status type.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    private readonly proxy: ClientProxy<any, any>,
    private readonly timeoutMs: number,
    /** Kafka's reachability apart from this client's own connection; none in process. */
    private readonly probe?: { reachable(): Promise<boolean>; close(): Promise<void> },
  ) {}

  onModuleInit(): void {
    // Connect in the background: a gateway boots without Kafka and answers 503 until it is there.
    this.ensureConnected().catch(() => undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.proxy.close();
    await this.probe?.close();
  }

  /**
   * The reply to `payload` on `pattern`, both typed by the pattern's entry in BusContract.
   * `timeoutMs`: this request's own bound instead of the client's (a caller that must answer
   * before its own caller stops waiting).
   */
  async request<P extends Pattern>(pattern: P, payload: RequestOf<P>, options: RequestOptions = {}): Promise<ReplyOf<P>> {
    return replyValue<ReplyOf<P>>(await this.requestAnswer(pattern, payload, options));
  }

  /**
   * The reply as it arrived: the value as built (in process) or its JSON text (Kafka), for a
   * caller that sends it on as it is (see JsonText).
   */
  async requestAnswer<P extends Pattern>(pattern: P, payload: RequestOf<P>, { timeoutMs = this.timeoutMs }: RequestOptions = {}): Promise<ReplyOf<P> | JsonText> {
    const started = performance.now();
    try {
      await withTimeout(this.ensureConnected(), timeoutMs);
      const reply = await firstValueFrom(this.proxy.send<ReplyOf<P> | JsonText>(pattern, payload).pipe(timeout(timeoutMs)));
      observeBusRequest(pattern, 'ok', (performance.now() - started) / 1000);
      return reply;
    } catch (err) {
      const error = toDomainError(err);
      observeBusRequest(pattern, busOutcome(error), (performance.now() - started) / 1000);
      throw error;
    }
  }

  /** For readiness: the answer to a request on `pattern`, or undefined when none came within `withinMs`. */
  async probeAnswer<P extends Pattern>(pattern: P, withinMs: number): Promise<ReplyOf<P> | undefined> {
    try {
      await withTimeout(this.ensureConnected(), withinMs);
      return replyValue<ReplyOf<P>>(await firstValueFrom(this.proxy.send<ReplyOf<P> | JsonText>(pattern, {}).pipe(timeout(withinMs))));
    } catch {
      return undefined;
    }
  }

  /** For readiness: can the bus be reached right now? */
  async isReachable(): Promise<boolean> {
    try {
      return this.probe ? await this.probe.reachable() : true;
    } catch {
      return false;
    }
  }

  /**
   * One connection attempt at a time, left to finish however long a consumer-group join
   * takes (a request only waits up to its timeout); a failed attempt is closed and
   * forgotten, because ClientKafka would otherwise keep answering with the old failure.
   */
  private ensureConnected(): Promise<void> {
    this.connecting ??= Promise.resolve(this.proxy.connect()).then(
      () => undefined,
      async (err) => {
        this.connecting = undefined;
        this.logger.warn(`Bus connection failed: ${(err as Error)?.message ?? err}`);
        await Promise.resolve(this.proxy.close()).catch(() => undefined);
        throw err;
      },
    );
    return this.connecting;
  }
}

/** Per request: `timeoutMs` replaces the client's BUS_TIMEOUT_MS for this request. */
export interface RequestOptions {
  timeoutMs?: number;
}

/** A service's own refusal (a domain error) is an answer; no answer at all is `unavailable`. */
function busOutcome(error: unknown): 'error' | 'unavailable' {
  return error instanceof DomainError && error.code !== ErrorCode.Unavailable ? 'error' : 'unavailable';
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (err) => (clearTimeout(timer), reject(err)),
    );
  });
}
