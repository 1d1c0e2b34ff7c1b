import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { NotFoundException } from '@nestjs/common';
import { MethodNotAllowedError } from './method-not-allowed';
import { toProblem } from './problem-details';

describe('toProblem', () => {
  it('maps a domain error to its status and keeps the field errors', () => {
    const problem = toProblem(DomainError.validation([{ path: 'name', message: 'must be a string' }]), 'req-1');
    expect(problem.body).toEqual({
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'validation_failed',
      detail: 'The request is not valid',
      requestId: 'req-1',
      errors: [{ path: 'name', message: 'must be a string' }],
    });
  });

  it('gives 503 and 429 a Retry-After', () => {
    expect(toProblem(new DomainError(ErrorCode.Unavailable, 'down'), 'r').retryAfter).toBe(2);
    expect(toProblem(new DomainError(ErrorCode.QuotaExceeded, 'over', undefined, 60), 'r').retryAfter).toBe(60);
    expect(toProblem(DomainError.notFound('x'), 'r').retryAfter).toBeUndefined();
  });

  it('maps Fastify body errors to the contract codes', () => {
    const err = (code: string, statusCode: number) => Object.assign(new Error('x'), { code, statusCode });
    expect(toProblem(err('FST_ERR_CTP_INVALID_JSON_BODY', 400), 'r').body.code).toBe('invalid_json');
    expect(toProblem(err('FST_ERR_CTP_BODY_TOO_LARGE', 413), 'r').body.status).toBe(413);
    expect(toProblem(err('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415), 'r').body.code).toBe('unsupported_media_type');
  });

  it('answers a body whose connection broke off as a client error, not internal', () => {
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
    expect(toProblem(aborted, 'r').body).toMatchObject({ status: 400, code: 'malformed_request' });
  });

  it('gives the statuses only the HTTP edge uses their titles', () => {
    expect(toProblem(new DomainError(ErrorCode.RequestTimeout, 't'), 'r').body).toMatchObject({ status: 408, title: 'Request Timeout' });
    expect(toProblem(new DomainError(ErrorCode.UriTooLong, 'u'), 'r').body).toMatchObject({ status: 414, title: 'URI Too Long' });
    expect(toProblem(new DomainError(ErrorCode.HeadersTooLarge, 'h'), 'r').body).toMatchObject({ status: 431, title: 'Request Header Fields Too Large' });
  });

  it('hides unexpected errors behind internal', () => {
    const problem = toProblem(new Error('relation "projects" does not exist'), 'r');
    expect(problem.body.status).toBe(500);
    expect(problem.body.detail).toBe('Internal error');
  });

  it('answers unknown routes as not_found and carries Allow on 405', () => {
    expect(toProblem(new NotFoundException(), 'r').body.code).toBe('not_found');
    const problem = toProblem(new MethodNotAllowedError('PUT', ['GET', 'POST']), 'r');
    expect(problem.body.status).toBe(405);
    expect(problem.headers).toEqual({ allow: 'GET, POST' });
  });
});
