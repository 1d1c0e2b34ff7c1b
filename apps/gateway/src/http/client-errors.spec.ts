import type { Socket } from 'node:net';
import { answerClientError } from './client-errors';

/** A socket that records what is written to it and whether it was closed. */
function aSocket(inFlight?: { headersSent: boolean }) {
  const written: string[] = [];
  const socket = { writable: true, destroyed: false, _httpMessage: inFlight, write: (s: string) => written.push(s), destroy: jest.fn() };
  return { socket: socket as unknown as Socket, written, destroy: socket.destroy };
}

const parserError = (code: string, rawPacket?: string) =>
  Object.assign(new Error('Parse Error'), { code, reason: 'Invalid header token', rawPacket: rawPacket && Buffer.from(rawPacket) });

const answered = (written: string[]) => {
  const [head, body] = written.join('').split('\r\n\r\n');
  return { statusLine: head.split('\r\n')[0], head, body: JSON.parse(body) as { requestId: string } };
};

describe('answerClientError', () => {
  it.each([
    ['HPE_INVALID_HEADER_TOKEN', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n', 'HTTP/1.1 400 Bad Request', 'malformed_request'],
    ['HPE_HEADER_OVERFLOW', `GET / HTTP/1.1\r\nX-Big: ${'a'.repeat(20_000)}`, 'HTTP/1.1 431 Request Header Fields Too Large', 'headers_too_large'],
    ['HPE_HEADER_OVERFLOW', `GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 'HTTP/1.1 414 URI Too Long', 'uri_too_long'],
    ['ERR_HTTP_REQUEST_TIMEOUT', undefined, 'HTTP/1.1 408 Request Timeout', 'request_timeout'],
  ])('answers %s with a problem and closes the connection', (code, packet, statusLine, problemCode) => {
    const { socket, written, destroy } = aSocket();
    answerClientError(parserError(code, packet), socket);
    const answer = answered(written);
    expect(answer.statusLine).toBe(statusLine);
    expect(answer.head).toMatch(/\r\nContent-Type: application\/problem\+json; charset=utf-8\r\n/);
    expect(answer.head).toMatch(/\r\nConnection: close(\r\n|$)/);
    expect(answer.head).toContain(`\r\nX-Request-Id: ${answer.body.requestId}`);
    expect(answer.body).toMatchObject({ code: problemCode, type: 'about:blank' });
    expect(destroy).toHaveBeenCalled();
  });

  it('writes nothing into an answer that has already started, and still closes', () => {
    const { socket, written, destroy } = aSocket({ headersSent: true });
    answerClientError(parserError('ERR_HTTP_REQUEST_TIMEOUT'), socket);
    expect(written).toEqual([]);
    expect(destroy).toHaveBeenCalled();
  });
});
