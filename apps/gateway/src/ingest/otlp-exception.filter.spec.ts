import { DomainError, ErrorCode } from '@cinetrace/contracts';
import { decodeStatus } from '@cinetrace/traces';
import type { ArgumentsHost } from '@nestjs/common';
import { GatewayExceptionFilter } from './otlp-exception.filter';

/** What the filter wrote: status, headers, body. */
function answer(url: string, contentType: string, exception: unknown) {
  const sent: { status?: number; headers: Record<string, string>; body?: unknown } = { headers: {} };
  const reply = {
    status: (code: number) => ((sent.status = code), reply),
    header: (name: string, value: string) => ((sent.headers[name] = value), reply),
    send: (body: unknown) => ((sent.body = body), reply),
  };
  const request = { id: 'req-1', method: 'POST', routeOptions: { url }, headers: { 'content-type': contentType } };
  const host = { switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }) } as unknown as ArgumentsHost;
  new GatewayExceptionFilter().catch(exception, host);
  return sent;
}

describe('GatewayExceptionFilter', () => {
  it('answers backpressure on an OTLP route as 503 with Retry-After and a protobuf google.rpc.Status', () => {
    const sent = answer('/v1/traces', 'application/x-protobuf', new DomainError(ErrorCode.Unavailable, 'The trace stream is behind', undefined, 3));
    expect(sent.status).toBe(503);
    expect(sent.headers['retry-after']).toBe('3');
    expect(sent.headers['content-type']).toBe('application/x-protobuf');
    expect(decodeStatus(sent.body as Buffer)).toEqual({ code: 14, message: 'The trace stream is behind' });
  });

  it('answers in JSON to a JSON export, and never says more than "Internal error" of an unexpected failure', () => {
    const sent = answer('/api/v1/otel/v1/traces', 'application/json; charset=utf-8', new Error('SELECT secret FROM keys'));
    expect(sent.status).toBe(500);
    expect(JSON.parse(sent.body as string)).toEqual({ code: 13, message: 'Internal error' });
  });

  it('answers problem details everywhere else', () => {
    const sent = answer('/api/v1/traces', 'application/x-protobuf', new DomainError(ErrorCode.Unavailable, 'later', undefined, 2));
    expect(sent.status).toBe(503);
    expect(sent.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(sent.body).toMatchObject({ code: 'unavailable', status: 503 });
  });
});
