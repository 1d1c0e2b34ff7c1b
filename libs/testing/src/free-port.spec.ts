import { existsSync, mkdirSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canListen, FIRST_PORT, freePort, PORT_COUNT } from './free-port';

const claims = join(tmpdir(), 'cinetrace-test-ports');
/** Math.random's value that makes freePort draw `port`. */
const drawing = (port: number) => (port - FIRST_PORT + 0.5) / PORT_COUNT;
const claimed = (port: number) => existsSync(join(claims, String(port)));

/**
 * A port no test process on the machine has claimed and nothing listens on, found without
 * claiming it. The tests draw their ports here rather than naming them: CI runs other jest
 * processes beside this one, and a named port can be theirs (a fixed 24,322 once was).
 */
async function unclaimedFreePort(except: number[] = []): Promise<number> {
  for (let tries = 0; tries < 200; tries += 1) {
    const port = FIRST_PORT + Math.floor(Math.random() * PORT_COUNT);
    if (!except.includes(port) && !claimed(port) && (await canListen(port))) return port;
  }
  throw new Error('no unclaimed free port to test with');
}

describe('freePort', () => {
  const made: string[] = [];
  /** Ports freePort handed out in this process: it never hands them out again, claim or not. */
  const handed: number[] = [];
  /** A claim on `port` as another test process would leave it, `ageMs` old. */
  const claimedElsewhere = (port: number, ageMs: number) => {
    mkdirSync(claims, { recursive: true });
    const file = join(claims, String(port));
    writeFileSync(file, '');
    const when = (Date.now() - ageMs) / 1000;
    utimesSync(file, when, when);
    made.push(file);
  };
  afterEach(() => {
    jest.restoreAllMocks();
    for (const file of made.splice(0)) if (existsSync(file)) unlinkSync(file);
  });

  it('claims the port it hands out, so another test process on the machine skips it', async () => {
    const port = await freePort();
    handed.push(port);
    made.push(join(claims, String(port)));
    expect(claimed(port)).toBe(true);
  });

  it('skips a port another process claimed a moment ago, free as it is', async () => {
    const taken = await unclaimedFreePort(handed);
    const next = await unclaimedFreePort([...handed, taken]);
    claimedElsewhere(taken, 1000);
    jest.spyOn(Math, 'random').mockReturnValueOnce(drawing(taken)).mockReturnValueOnce(drawing(next));
    const port = await freePort();
    handed.push(port);
    made.push(join(claims, String(port)));
    expect(port).toBe(next);
  });

  it('takes over a claim left by a killed process long ago when nothing listens on its port', async () => {
    const left = await unclaimedFreePort(handed);
    claimedElsewhere(left, 60 * 60_000);
    jest.spyOn(Math, 'random').mockReturnValueOnce(drawing(left));
    expect(await freePort()).toBe(left);
  });
});
