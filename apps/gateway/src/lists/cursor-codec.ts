import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Opaque list cursors: the service's keyset position, base64url-encoded and signed
 * with HMAC-SHA256 over the list's scope (route, organization, project, filters). A
 * tampered cursor, or one taken from another list, fails the signature: `invalid_cursor`.
 */
export class CursorCodec {
  constructor(private readonly secret: Buffer) {}

  encode(scope: string, key: unknown): string {
    const payload = Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
    return `${payload}.${this.sign(scope, payload)}`;
  }

  decode(scope: string, cursor: string): unknown {
    const [payload, signature, ...rest] = cursor.split('.');
    if (!payload || !signature || rest.length) throw invalidCursor();
    const expected = Buffer.from(this.sign(scope, payload));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidCursor();
    try {
      return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw invalidCursor();
    }
  }

  private sign(scope: string, payload: string): string {
    return createHmac('sha256', this.secret).update(scope).update('\n').update(payload).digest('base64url').slice(0, 32);
  }
}

function invalidCursor(): DomainError {
  return new DomainError(ErrorCode.InvalidCursor, 'The cursor is not one this list gave out; start again without it', [
    { path: 'cursor', message: 'is not a cursor of this list' },
  ]);
}
