import { DomainError } from '@cinetrace/contracts';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { catchError, from, mergeMap, Observable, of, throwError } from 'rxjs';
import type { AuthenticatedRequest } from '../auth/caller';
import { canonicalJson } from '../http/canonical-json';
import { IdempotencyStore } from './idempotency.store';
import { SECRET_IN_ANSWER_METADATA } from './secret-in-answer.decorator';
import { SECRET_IN_BODY_METADATA } from './secret-in-body.decorator';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on any POST: the first 2xx answer is stored and replayed (same
 * status, body, Location and ETag, `Idempotent-Replayed: true`) for the same key and body within 24 h;
 * a different body under the same key is `422 idempotency_key_reused`. Failed requests
 * are not stored, so a retry after a 503 does the work. Fields a route marks as secret
 * (SecretInBody) are not part of the fingerprint: nothing stored is derived from them.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  // Not async: the requests without a key (nearly all) pass without a promise of their own.
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> | Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const key = request.headers['idempotency-key'];
    if (request.method !== 'POST' || key === undefined) return next.handle();
    // A media upload streams its bytes unread (nothing to fingerprint), and is idempotent by its content already (same bytes, same media).
    if (request.body instanceof Readable) return next.handle();
    return this.keyed(context, next, request, key);
  }

  private async keyed(context: ExecutionContext, next: CallHandler, request: AuthenticatedRequest, key: string | string[]): Promise<Observable<unknown>> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw DomainError.validation([{ path: 'Idempotency-Key', message: 'must be 1..255 visible ASCII characters' }]);
    }
    if (this.reflector.getAllAndOverride<boolean>(SECRET_IN_ANSWER_METADATA, [context.getHandler(), context.getClass()])) {
      // Replaying would mean storing the secret: keys are kept as their hash only.
      throw DomainError.validation(
        [{ path: 'Idempotency-Key', message: 'is not accepted here: the answer holds a secret shown once, which is never stored for a replay' }],
        'Idempotency-Key is not accepted on this route',
      );
    }
    const scope = `${request.auth?.orgId ?? '-'}:${request.auth?.project?.id ?? '-'}`;
    const secretFields = this.reflector.getAllAndOverride<string[] | undefined>(SECRET_IN_BODY_METADATA, [context.getHandler(), context.getClass()]);
    const fingerprint = createHash('sha256')
      .update(`${request.method} ${request.url}\n${canonicalJson(withoutFields(request.body ?? null, secretFields))}`)
      .digest('hex');

    const claim = await this.store.claim(scope, key, fingerprint);
    if (claim.kind === 'replay') {
      reply.status(claim.statusCode).header('idempotent-replayed', 'true');
      if (claim.location) reply.header('location', claim.location);
      if (claim.etag) reply.header('etag', claim.etag);
      return of(claim.body);
    }
    return next.handle().pipe(
      mergeMap(async (body: unknown) => {
        await this.store.complete(scope, key, reply.statusCode, body, { location: headerOf(reply, 'location'), etag: headerOf(reply, 'etag') });
        return body;
      }),
      catchError((err: unknown) => from(this.store.release(scope, key).catch(() => undefined)).pipe(mergeMap(() => throwError(() => err)))),
    );
  }
}

/** The body without its secret fields, which the fingerprint must not cover. */
function withoutFields(body: unknown, fields: string[] | undefined): unknown {
  if (!fields?.length || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => !fields.includes(name)));
}

const headerOf = (reply: FastifyReply, name: string): string | null => {
  const value = reply.getHeader(name);
  return typeof value === 'string' ? value : null;
};
