import { createServer } from 'node:net';

/**
 * Ports are drawn below Linux's ephemeral range (32768+): a port the OS picked from that
 * range can be taken by any outgoing connection (a Kafka or PostgreSQL client) between this
 * call and the app binding it, which failed a stack's start with EADDRINUSE.
 */
const FIRST_PORT = 20_000;
const LAST_PORT = 32_000;
const handedOut = new Set<number>();

/** A TCP port free at the time of the call, never handed out before by this process. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = FIRST_PORT + Math.floor(Math.random() * (LAST_PORT - FIRST_PORT));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${LAST_PORT}`);
}

/** Whether a server could listen on `port` on every interface (the apps listen on 0.0.0.0). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
