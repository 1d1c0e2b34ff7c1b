import { DomainError, ErrorCode } from '@cinetrace/contracts';

/** 405 with the `Allow` header RFC 9110 asks for. */
export class MethodNotAllowedError extends DomainError {
  readonly headers: Record<string, string>;

  constructor(method: string, allowed: string[]) {
    super(ErrorCode.MethodNotAllowed, `${method} is not allowed here; use ${allowed.join(', ')}`);
    this.headers = { allow: allowed.join(', ') };
  }
}
