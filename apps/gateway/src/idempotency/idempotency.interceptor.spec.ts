import { Reflector } from '@nestjs/core';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { lastValueFrom, of } from 'rxjs';
import { SecretsController } from '../secrets/secrets.controller';
import { canonicalJson } from '../http/canonical-json';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import type { Claim, IdempotencyStore, StoredHeaders } from './idempotency.store';

/** The store as far as the interceptor uses it: every row it would write, kept in memory. */
class RecordingStore {
  readonly rows: Array<{ scope: string; key: string; fingerprint: string; body?: string }> = [];

  async claim(scope: string, key: string, fingerprint: string): Promise<Claim> {
    this.rows.push({ scope, key, fingerprint });
    return { kind: 'fresh' };
  }

  async complete(scope: string, key: string, _status: number, body: unknown, _headers: StoredHeaders): Promise<void> {
    this.rows.find((r) => r.scope === scope && r.key === key)!.body = JSON.stringify(body);
  }

  async release(): Promise<void> {}
}

function context(handler: (...args: never[]) => unknown, controller: object, body: unknown, key: string): ExecutionContext {
  const request = { method: 'POST', url: '/api/v1/secrets', headers: { 'idempotency-key': key }, body, auth: { orgId: 'org_1' } };
  const reply = { statusCode: 201, getHeader: () => undefined, status: () => reply, header: () => reply };
  return {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
    getHandler: () => handler,
    getClass: () => controller,
  } as unknown as ExecutionContext;
}

describe('IdempotencyInterceptor on POST /api/v1/secrets', () => {
  it('stores nothing derived from the secret value: the record is the same whatever the value', async () => {
    const store = new RecordingStore();
    const interceptor = new IdempotencyInterceptor(store as unknown as IdempotencyStore, new Reflector());
    const answer = { id: 'sec_1', name: 'MODEL_KEY', allowedHosts: [] };
    const next: CallHandler = { handle: () => of(answer) };
    for (const [key, value] of [
      ['k1', 'sk-first-guessable'],
      ['k2', 'sk-second-guessable'],
    ]) {
      const ctx = context(SecretsController.prototype.create, SecretsController, { name: 'MODEL_KEY', value, allowedHosts: [] }, key);
      await lastValueFrom(await interceptor.intercept(ctx, next));
    }
    const [first, second] = store.rows;
    expect(first.fingerprint).toBe(second.fingerprint);
    // A guess of the value, hashed as the fingerprint was before, matches nothing stored.
    const guess = createHash('sha256')
      .update(`POST /api/v1/secrets\n${canonicalJson({ name: 'MODEL_KEY', value: 'sk-first-guessable', allowedHosts: [] })}`)
      .digest('hex');
    expect(JSON.stringify(store.rows)).not.toContain(guess);
    expect(JSON.stringify(store.rows)).not.toContain('guessable');
  });

  it('still tells bodies apart by the fields that are not secret', async () => {
    const store = new RecordingStore();
    const interceptor = new IdempotencyInterceptor(store as unknown as IdempotencyStore, new Reflector());
    const next: CallHandler = { handle: () => of({}) };
    for (const name of ['A', 'B']) {
      await lastValueFrom(await interceptor.intercept(context(SecretsController.prototype.create, SecretsController, { name, value: 'v' }, name), next));
    }
    expect(store.rows[0].fingerprint).not.toBe(store.rows[1].fingerprint);
  });
});
