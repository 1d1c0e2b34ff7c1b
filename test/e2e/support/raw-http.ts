import { connect, Socket } from 'node:net';
import { Problem } from './api-types';

/** An HTTP answer read off a raw socket. */
export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  text: string;
  /** The body parsed as JSON when it is JSON, else undefined. */
  body: unknown;
  /** How many bytes the answer took on the wire, head and body. */
  size: number;
}

/** The body read as the problem details it should be (a claim: the caller's assertions check it). */
export const problemIn = (response: RawResponse): Partial<Problem> | undefined => response.body as Partial<Problem> | undefined;

/**
 * A TCP connection to the stack for requests no HTTP client would send (bytes that are
 * not UTF-8 in a URL, a request line of 20 KB, a body trickled byte by byte), and to see
 * what the server writes back before it closes.
 */
export class RawConnection {
  private received = Buffer.alloc(0);
  private closedAt: number | undefined;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => (this.received = Buffer.concat([this.received, chunk])));
    socket.on('error', () => undefined); // a reset by the server is an outcome the tests look at
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.closedAt = Date.now();
        resolve();
      }),
    );
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) }, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes bytes; resolves false when the server has closed the connection already. */
  write(bytes: string | Buffer): Promise<boolean> {
    if (this.socket.destroyed || !this.socket.writable) return Promise.resolve(false);
    return new Promise((resolve) => this.socket.write(bytes, (err) => resolve(!err)));
  }

  /** Every byte the server has written on the connection so far. */
  get receivedSize(): number {
    return this.received.length;
  }

  get isClosed(): boolean {
    return this.closedAt !== undefined;
  }

  /** When the server closed the connection (epoch ms), if it has. */
  get closedTime(): number | undefined {
    return this.closedAt;
  }

  /** The first answer on the connection, once it is whole (by Content-Length) or the server has closed. */
  async response(timeoutMs = 10_000): Promise<RawResponse> {
    return (await this.responses(1, timeoutMs))[0];
  }

  /** The first `count` answers on the connection (pipelined requests are answered in order). */
  async responses(count: number, timeoutMs = 10_000): Promise<RawResponse[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed: RawResponse[] = [];
      let offset = 0;
      while (parsed.length < count) {
        const next = parseResponse(this.received.subarray(offset), this.isClosed);
        if (!next) break;
        parsed.push(next);
        offset += next.size;
      }
      if (parsed.length === count) return parsed;
      const seen = JSON.stringify(this.received.toString('latin1'));
      if (this.isClosed) throw new Error(`the connection closed after ${parsed.length} of ${count} answers (received ${seen})`);
      if (Date.now() > deadline) throw new Error(`${parsed.length} of ${count} answers within ${timeoutMs} ms (received ${seen})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  close(): void {
    this.socket.destroy();
  }
}

/** Sends `bytes` on a new connection and reads the answer. */
export async function rawRequest(baseUrl: string, bytes: string | Buffer): Promise<RawResponse> {
  const connection = await RawConnection.open(baseUrl);
  try {
    await connection.write(bytes);
    return await connection.response();
  } finally {
    connection.close();
  }
}

function parseResponse(data: Buffer, closed: boolean): RawResponse | undefined {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const bodyBytes = data.subarray(end + 4);
  if (length === undefined ? !closed : bodyBytes.length < length) return undefined;
  const raw = bodyBytes.subarray(0, length ?? bodyBytes.length);
  const text = raw.toString('utf8');
  let body: unknown;
  try {
    body = /json/.test(headers['content-type'] ?? '') ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: Number(statusLine.split(' ')[1]), headers, text, body, size: end + 4 + raw.length };
}
