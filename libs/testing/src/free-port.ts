import { closeSync, mkdirSync, openSync, statSync, unlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Ports are drawn below Linux's ephemeral range (32768+): a port the OS picked from that
 * range can be taken by any outgoing connection (a Kafka or PostgreSQL client) between this
 * call and the app binding it, which failed a stack's start with EADDRINUSE.
 */
export const FIRST_PORT = 20_000;
export const LAST_PORT = 32_000;
/** How many ports freePort draws from: FIRST_PORT inclusive to LAST_PORT exclusive. */
export const PORT_COUNT = LAST_PORT - FIRST_PORT;
const handedOut = new Set<number>();

/**
 * Every test process on the machine claims the ports it hands out with a file here (created
 * exclusively), so that jest runs side by side (CI runs three) never hand out the same port:
 * one run's port was free when drawn, then another's app bound it before the first run's app
 * started (EADDRINUSE). A claim is kept for STALE_CLAIM_MS, past the restarts a stack makes on
 * its own ports (jest loads this module anew for each test file, so no process-wide hook could
 * remove it); then a port nothing listens on may be drawn again.
 */
const CLAIMS_DIR = join(tmpdir(), 'cinetrace-test-ports');
const STALE_CLAIM_MS = 30 * 60_000;
const claimFile = (port: number) => join(CLAIMS_DIR, String(port));

/** A TCP port free at the time of the call, not handed out by any test process on the machine within STALE_CLAIM_MS. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = FIRST_PORT + Math.floor(Math.random() * PORT_COUNT);
    if (await takePort(port)) return port;
  }
  throw new Error(`no free port between ${FIRST_PORT} and ${LAST_PORT}`);
}

/** Hands out this very port if it is unclaimed and free (a broker's controller beside its listener); whether it did. */
export async function takePort(port: number): Promise<boolean> {
  mkdirSync(CLAIMS_DIR, { recursive: true });
  if (handedOut.has(port) || !claim(port)) return false;
  if (!(await canListen(port))) {
    release(port);
    return false;
  }
  handedOut.add(port);
  return true;
}

/** Whether this process now holds the port's claim: it created the file, or took over a stale one. */
function claim(port: number): boolean {
  const file = claimFile(port);
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      closeSync(openSync(file, 'wx'));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(file).mtimeMs < STALE_CLAIM_MS) return false;
        unlinkSync(file);
      } catch {
        return false; // its owner released it meanwhile, or another process took it over: draw again
      }
    }
  }
  return false;
}

/** Gives back a claim just made for a port that turned out to be in use. */
function release(port: number): void {
  try {
    unlinkSync(claimFile(port));
  } catch {
    // already gone
  }
}

/** Whether a server could listen on `port` on every interface (the apps listen on 0.0.0.0). */
export function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}
